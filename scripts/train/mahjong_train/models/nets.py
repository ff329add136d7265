"""Models for the two-stage tile scanner.

Detector: class-agnostic CenterNet-style tile detector. Input: float32 RGB in
[0, 1], NCHW, letterboxed square (512 at inference; any multiple of 32 works).
Outputs at stride 4: heatmap (N, 2, H/4, W/4) sigmoid, channel 0 = upright
tile centre, channel 1 = sideways tile centre; box (N, 4, H/4, W/4) =
(dx, dy, log(w/4), log(h/4)) with dx, dy the sub-cell centre offset.

Classifier: crop classifier. Input: float32 RGB in [0, 1], (N, 3, 64, 48)
(height 64, width 48, an upright tile stretched to fill it). Output: logits
(N, 43).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 43
DET_STRIDE = 4
CLS_H, CLS_W = 64, 48
# flower reader (mode flw): the classifier network on larger crops of tiles read as flowers
FLW_H, FLW_W = 96, 72


def cbr(cin, cout, k=3, s=1, groups=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DWBlock(nn.Module):
    """Depthwise-separable block, residual when shapes match."""

    def __init__(self, cin, cout, s=1):
        super().__init__()
        self.dw = cbr(cin, cin, 3, s, groups=cin)
        self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.res = s == 1 and cin == cout

    def forward(self, x):
        y = self.pw(self.dw(x))
        return F.relu(y + x) if self.res else F.relu(y)


class Detector(nn.Module):
    def __init__(self, w=(16, 32, 48, 96, 128)):
        super().__init__()
        c0, c1, c2, c3, c4 = w
        self.stem = cbr(3, c0, 3, 2)  # /2
        self.s4 = nn.Sequential(DWBlock(c0, c1, 2), DWBlock(c1, c1))  # /4
        self.s8 = nn.Sequential(DWBlock(c1, c2, 2), DWBlock(c2, c2), DWBlock(c2, c2))  # /8
        self.s16 = nn.Sequential(DWBlock(c2, c3, 2), DWBlock(c3, c3), DWBlock(c3, c3))  # /16
        self.s32 = nn.Sequential(DWBlock(c3, c4, 2), DWBlock(c4, c4), DWBlock(c4, c4))  # /32
        f = 48
        self.l32 = nn.Conv2d(c4, f, 1)
        self.l16 = nn.Conv2d(c3, f, 1)
        self.l8 = nn.Conv2d(c2, f, 1)
        self.l4 = nn.Conv2d(c1, f, 1)
        self.m16 = DWBlock(f, f)
        self.m8 = DWBlock(f, f)
        self.m4 = DWBlock(f, f)
        self.head = nn.Sequential(cbr(f, f, 3, 1, groups=f), cbr(f, f, 1))
        self.hm = nn.Conv2d(f, 2, 1)
        self.box = nn.Conv2d(f, 4, 1)
        nn.init.constant_(self.hm.bias, -4.0)

    def forward(self, x):
        x = (x - 0.5) * 4.0
        x = self.stem(x)
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p = self.l32(f32)
        p = self.m16(self.l16(f16) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.m8(self.l8(f8) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.m4(self.l4(f4) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        h = self.head(p)
        return torch.sigmoid(self.hm(h)), self.box(h)


# Classifier width presets: "s" ~10 M multiply-adds per crop (101 k parameters),
# "m" ~29 M multiply-adds per crop (380 k parameters).
CLS_WIDTHS = {"s": (24, 48, 72, 128, 192), "m": (32, 64, 128, 256, 512)}


class Classifier(nn.Module):
    """Depthwise-separable crop classifier; width preset "s" or "m" (CLS_WIDTHS)."""

    def __init__(self, w=CLS_WIDTHS["s"]):
        if isinstance(w, str):
            w = CLS_WIDTHS[w]
        super().__init__()
        c0, c1, c2, c3, c4 = w
        self.net = nn.Sequential(
            cbr(3, c0, 3, 2),  # 32x24
            DWBlock(c0, c1), DWBlock(c1, c1),
            DWBlock(c1, c2, 2),  # 16x12
            DWBlock(c2, c2), DWBlock(c2, c2),
            DWBlock(c2, c3, 2),  # 8x6
            DWBlock(c3, c3), DWBlock(c3, c3),
            cbr(c3, c4, 1),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(c4, NUM_CLASSES)

    def forward(self, x):
        x = (x - 0.5) * 4.0
        x = self.net(x)
        x = x.mean(dim=(2, 3))
        return self.fc(self.drop(x))


class Spotter(nn.Module):
    """Flower-character spotter (mode flw, width spot): the first six blocks of the `m`
    classifier (to stride 4, 128 channels; started from the flower reader's weights), a 1x1 layer
    and a 1x1 layer of 43 class scores per output cell. Every cell sees only a 31 px window of the
    96x72 crop (about a third of the tile's width); the crop's logits pool the cells by
    log-mean-exp. Trained on flowers whose picture is often another flower's (--decoy-flowers,
    --decoy-always), the evidence it can use is local: the character and the numeral, wherever
    they are on the face, rather than the plant drawing, which differs from set to set. Same
    interface as Classifier on 96x72 crops."""

    def __init__(self):
        super().__init__()
        trunk = list(Classifier("m").net)[:6]  # 48x36 -> 24x18, 128 channels
        self.net = nn.Sequential(*trunk, cbr(128, 192, 1))
        self.drop = nn.Dropout2d(0.1)
        self.cell = nn.Conv2d(192, NUM_CLASSES, 1)

    def forward(self, x):
        x = (x - 0.5) * 4.0
        c = self.cell(self.drop(self.net(x))).flatten(2)  # (n, 43, cells)
        return torch.logsumexp(c, dim=2) - math.log(c.shape[2])


def make_classifier(width):
    """The crop network for a width preset: "s"/"m" (Classifier) or "spot" (Spotter)."""
    return Spotter() if width == "spot" else Classifier(width)


def count_params(m):
    return sum(p.numel() for p in m.parameters())
