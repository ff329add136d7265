"""Data loading and batched, torch-vectorised augmentation.

Scene folders (from scripts/synth/generate.ts) hold images/NNNNNN.jpg and
labels/NNNNNN.json = {"width","height","tiles":[{"code","box","quad",
"sideways","upside_down",...}]}. Single-tile folders (--tiles) hold
tiles/<code>/NNNNNN.jpg (+ labels.csv).

Everything is decoded once into memory as uint8 numpy arrays (GrowingScenes /
GrowingTiles below); sets still being generated are picked up as they grow.
"""
import json
import math
import os
import glob

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

CLASSES = [f"{i}m" for i in range(1, 10)] + [f"{i}p" for i in range(1, 10)] + \
    [f"{i}s" for i in range(1, 10)] + [f"{i}z" for i in range(1, 8)] + \
    [f"f{i}" for i in range(1, 9)] + ["back"]
CLS_INDEX = {c: i for i, c in enumerate(CLASSES)}

DET_CACHE_SIZE = 512      # scenes are letterboxed to this square for detector training
# A tile cut by the edge of a training crop is a target when at least this much of its box is
# inside, as the generator labels tiles cut by the photo's edge (scripts/synth/scene.ts
# MIN_VISIBLE). Up to detector phase 3 this was 0.6, so tiles 50-60 % inside were negatives and
# the detector missed a third of the tiles cut by the photo's edge in val-holdout.
MIN_VISIBLE = 0.5
PATCH = 96                # classifier context patch (covers PATCH_CTX x the tile box)
PATCH_CTX = 1.6
FLOWER_CODES = [f"f{i}" for i in range(1, 9)]
FLW_PATCH = 160           # flower reader context patch (its crops are 96x72, models.FLW_H/FLW_W)


def load_classes():
    p = os.path.join(ROOT, "scripts", "synth", "classes.json")
    if os.path.exists(p):
        with open(p) as f:
            c = json.load(f)
        if isinstance(c, dict):
            c = c.get("classes", c)
        if list(c) != CLASSES:
            raise SystemExit(f"scripts/synth/classes.json differs from the trainer's class list: {c}")
    return CLASSES


def list_scenes(folder):
    imgs = sorted(glob.glob(os.path.join(folder, "images", "*.jpg")))
    out = []
    for p in imgs:
        stem = os.path.splitext(os.path.basename(p))[0]
        lp = os.path.join(folder, "labels", stem + ".json")
        if os.path.exists(lp):
            out.append((p, lp))
    if not out:
        raise SystemExit(f"no scenes (images/*.jpg + labels/*.json) in {folder}")
    return out


def tile_quad(t):
    """Points whose bounding box is the label box: the face quad plus the quad moved by the
    body's extrusion (so that rotating the points keeps a tight box around the tile body).
    Falls back to the box corners."""
    x, y, w, h = t["box"]
    corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float32)
    q = t.get("quad")
    if not q or len(q) != 4 or t.get("truncated"):
        return corners
    q = np.array(q, dtype=np.float32)
    if t.get("extrude") is not None:
        return np.concatenate([q, q + np.array(t["extrude"], np.float32)])
    qx0, qy0 = q.min(0)
    qx1, qy1 = q.max(0)
    dx = (x - qx0) if x < qx0 - 0.5 else (x + w - qx1)
    dy = (y - qy0) if y < qy0 - 0.5 else (y + h - qy1)
    pts = np.concatenate([q, q + np.array([dx, dy], np.float32)])
    # guard against inconsistent labels: must reproduce the box
    if abs(pts[:, 0].min() - x) > 2 or abs(pts[:, 1].min() - y) > 2 or abs(pts[:, 0].max() - x - w) > 2 or abs(pts[:, 1].max() - y - h) > 2:
        return corners
    return pts


# ----------------------------------------------------------------------------
# Detector data


def _pad8(p):
    return p if len(p) == 8 else np.concatenate([p, p])


def rand_affine(n, gen, out_size, in_size, scale=(0.7, 1.45), rot=20.0, p_rot90=0.1, p_flip=0.5):
    """Per-sample affine (2x3, output pixel -> input pixel) plus rot90 flags."""
    out = []
    rot90 = []
    for _ in range(n):
        s = math.exp(torch.empty(1).uniform_(math.log(scale[0]), math.log(scale[1]), generator=gen).item())
        a = math.radians(torch.empty(1).uniform_(-rot, rot, generator=gen).item())
        r90 = torch.rand(1, generator=gen).item() < p_rot90
        if r90:
            a += math.pi / 2 * (1 if torch.rand(1, generator=gen).item() < 0.5 else -1)
        flip = torch.rand(1, generator=gen).item() < p_flip
        # input centre of the crop: anywhere such that the crop overlaps the image
        cx = torch.empty(1).uniform_(0.25 * in_size, 0.75 * in_size, generator=gen).item()
        cy = torch.empty(1).uniform_(0.25 * in_size, 0.75 * in_size, generator=gen).item()
        ca, sa = math.cos(a) / s, math.sin(a) / s
        fx = -1.0 if flip else 1.0
        # in = R/s * diag(fx,1) * (out - oc) + c
        M = np.array([[ca * fx, -sa, 0.0], [sa * fx, ca, 0.0]], np.float64)
        oc = out_size / 2.0
        M[:, 2] = np.array([cx, cy]) - M[:, :2] @ np.array([oc, oc])
        out.append(M)
        rot90.append(r90)
    return np.stack(out), rot90


def warp_batch(imgs_u8, M, out_h, out_w, fill=0.5):
    """imgs_u8: (N,H,W,3) uint8 numpy; M: (N,2,3) output px -> input px. Returns float (N,3,oh,ow)."""
    x = torch.from_numpy(np.ascontiguousarray(imgs_u8)).permute(0, 3, 1, 2).float() / 255.0
    N, _, H, W = x.shape
    # normalised coords (align_corners=False): u = (2*px + 1)/W - 1
    A = torch.zeros(N, 2, 3, dtype=torch.float64)
    Mt = torch.from_numpy(M)
    # out px = ((u+1)*ow - 1)/2 ; in px = M @ [out px,1]; in u = (2*in px + 1)/W - 1
    # compose: in_u = Sin * M * Sout^-1 * out_u
    Sout_inv = torch.tensor([[out_w / 2.0, 0, (out_w - 1) / 2.0], [0, out_h / 2.0, (out_h - 1) / 2.0], [0, 0, 1]], dtype=torch.float64)
    Sin = torch.tensor([[2.0 / W, 0, 1.0 / W - 1], [0, 2.0 / H, 1.0 / H - 1], [0, 0, 1]], dtype=torch.float64)
    M3 = torch.cat([Mt, torch.tensor([[[0, 0, 1.0]]], dtype=torch.float64).expand(N, 1, 3)], 1)
    A = (Sin @ M3 @ Sout_inv)[:, :2].float()
    grid = F.affine_grid(A, (N, 3, out_h, out_w), align_corners=False)
    # sampling (x - fill) with zero padding == sampling x with `fill` outside
    y = F.grid_sample(x.sub_(fill), grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    return y.add_(fill)


def photometric(x, gen, strength=1.0, grey=0.08, shuffle=0.0):
    """Colour jitter, gamma, grey (probability `grey`), colour channels swapped (probability
    `shuffle`), blur, noise, per sample. x: (N,3,H,W) in [0,1]."""
    N = x.shape[0]
    u = lambda lo, hi: torch.empty(N, 1, 1, 1).uniform_(lo, hi, generator=gen)
    s = strength
    # brightness / contrast / per-channel gain (white balance)
    x = x * u(1 - 0.4 * s, 1 + 0.3 * s)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * u(1 - 0.45 * s, 1 + 0.35 * s) + mean
    gain = torch.empty(N, 3, 1, 1).uniform_(1 - 0.15 * s, 1 + 0.15 * s, generator=gen)
    x = x * gain
    # saturation
    g = x.mean(dim=1, keepdim=True)
    x = g + (x - g) * u(1 - 0.6 * s, 1 + 0.5 * s)
    x = x.clamp(0, 1)
    # gamma
    x = x ** u(0.7, 1.4)
    # random greyscale
    gm = (torch.rand(N, 1, 1, 1, generator=gen) < grey * s).float()
    x = x * (1 - gm) + x.mean(dim=1, keepdim=True) * gm
    # swapped colour channels: the same drawing in another colour (sets colour their art differently)
    if shuffle > 0:
        for i in torch.nonzero(torch.rand(N, generator=gen) < shuffle).flatten().tolist():
            x[i] = x[i, torch.randperm(3, generator=gen)]
    # linear light gradient (shadow / glare)
    H, W = x.shape[2:]
    yy = torch.linspace(-1, 1, H).view(1, 1, H, 1)
    xx = torch.linspace(-1, 1, W).view(1, 1, 1, W)
    grad = u(-0.25, 0.25) * s * xx + u(-0.25, 0.25) * s * yy
    x = x * (1 + grad)
    # blur (3x3 or 5x5 box-ish gaussian) on a random subset
    bm = torch.rand(N, generator=gen) < 0.35 * s
    if bm.any():
        sig = float(torch.empty(1).uniform_(0.6, 1.6, generator=gen))
        k = torch.arange(-2, 3, dtype=torch.float32)
        k = torch.exp(-k ** 2 / (2 * sig * sig))
        k = k / k.sum()
        xb = x[bm]
        xb = F.conv2d(F.pad(xb, (2, 2, 0, 0), mode="replicate"), k.view(1, 1, 1, 5).repeat(3, 1, 1, 1), groups=3)
        xb = F.conv2d(F.pad(xb, (0, 0, 2, 2), mode="replicate"), k.view(1, 1, 5, 1).repeat(3, 1, 1, 1), groups=3)
        x[bm] = xb
    # noise
    x = x + torch.randn(x.shape, generator=gen) * u(0, 0.04 * s)
    return x.clamp(0, 1)


def picked(x, gen, p):
    """The crops of x (N,...) that a change made with probability `p` each picks, in order (none,
    and no draw from `gen`, with p <= 0), and a copy of x to change them in (x itself when none
    is picked)."""
    sel = [] if p <= 0 else torch.nonzero(torch.rand(x.shape[0], generator=gen) < p).flatten().tolist()
    return sel, (x.clone() if sel else x)


def lowres_aug(x, gen, p=0.3, lo_px=30, hi=0.8):
    """A tile photographed small: on a random subset of the crops (probability `p` each), the crop
    is shrunk to a height of `lo_px` to `hi` x its own (area averaging, as a camera's pixels do) and enlarged back
    (bilinear, as the pipeline's crop sampler does), so that a corner numeral a few pixels high
    looks as it does in a tile 30-60 px tall. The single-tile sets are rendered at 128 px and
    sharp; the val-holdout flowers misread were mostly 50-65 px tall in the 1024-px photo.
    x: (N,3,H,W) in [0,1]. Returns a new tensor (or x itself with p=0)."""
    sel, x = picked(x, gen, p)
    H, W = x.shape[2:]
    for i in sel:
        h = round(float(torch.empty(1).uniform_(min(lo_px, hi * H), hi * H, generator=gen)))
        w = max(3, round(W * h / H))
        small = F.interpolate(x[i:i + 1], size=(h, w), mode="area")
        x[i:i + 1] = F.interpolate(small, size=(H, W), mode="bilinear", align_corners=False)
    return x


def cut_aug(x, gen, p=0.1, lo=0.05, hi=0.5, margin=0.04):
    """A tile cut by the photo's edge, as the pipeline reads it from its completed box
    (completeCutBoxes in src/vision/preprocess.ts): on a random subset of the crops (probability
    `p` each), one side, from the crop's margin and `lo` to `hi` of the tile beyond it, is the last
    row or column of pixels still in the photo repeated (cropTiles samples the edge's own pixels
    beyond the raster). The scene sets label a cut tile by its visible part only, so no network
    was trained on this view (model/HISTORY.md, stops 45 and 56). x: (N,3,H,W). Returns a new
    tensor (or x itself with p=0)."""
    sel, x = picked(x, gen, p)
    H, W = x.shape[2:]
    for i in sel:
        side = int(torch.randint(4, (1,), generator=gen))
        frac = margin + float(torch.empty(1).uniform_(lo, hi, generator=gen))
        if side < 2:
            d = max(1, round(frac * H))
            if side == 0:
                x[i, :, :d] = x[i, :, d:d + 1]
            else:
                x[i, :, H - d:] = x[i, :, H - d - 1:H - d]
        else:
            d = max(1, round(frac * W))
            if side == 2:
                x[i, :, :, :d] = x[i, :, :, d:d + 1]
            else:
                x[i, :, :, W - d:] = x[i, :, :, W - d - 1:W - d]
    return x


def sharpen_aug(x, gen, p=0.3):
    """A phone's processing: on a random subset of the crops (probability `p` each), an unsharp
    mask (sigma 0.6-1.6 px, amount 0.5-2.5; the halos a phone's sharpening leaves round strokes),
    on a third of them after a light smoothing (sigma 0.5-1, its noise reduction). Sharpening at
    the photo's working scale cost val-holdout 0.003 (mild) to 0.016 (strong) of tile accuracy
    (stop 42 stress sets). x: (N,3,H,W) in [0,1]. Returns a new tensor (or x itself with p=0)."""
    sel, x = picked(x, gen, p)
    u = lambda lo, hi: float(torch.empty(1).uniform_(lo, hi, generator=gen))
    for i in sel:
        xi = x[i:i + 1]
        if u(0, 1) < 1 / 3:
            xi = _gauss(xi, u(0.5, 1.0))
        amount = u(0.5, 2.5)
        x[i:i + 1] = (xi + amount * (xi - _gauss(xi, u(0.6, 1.6)))).clamp(0, 1)
    return x


def blur_aug(x, gen, p=0.2):
    """A shaken or out-of-focus photo, past the trainer's mild blur (photometric: sigma 0.6-1.6):
    on a random subset of the crops (probability `p` each), half a Gaussian blur of sigma 1.2-2.8
    px, half a motion streak 3-9 px long at any angle (as the generator's motion blur, which
    reaches 9 px at 1024 px: about half of val-holdout's misread tiles are in photos blurred so).
    x: (N,3,H,W) in [0,1]. Returns a new tensor (or x itself with p=0)."""
    sel, x = picked(x, gen, p)
    u = lambda lo, hi: float(torch.empty(1).uniform_(lo, hi, generator=gen))
    for i in sel:
        xi = x[i:i + 1]
        x[i:i + 1] = _gauss(xi, u(1.2, 2.8)) if u(0, 1) < 0.5 else _motion(xi, u(3.0, 9.0), u(0.0, math.pi))
    return x


def _motion(x, length, angle):
    """A straight motion streak `length` px long at `angle` (radians) over (N,C,H,W), edges replicated."""
    n = int(math.ceil(length)) | 1
    c = (n - 1) / 2
    k = torch.zeros(n, n)
    for t in torch.linspace(-0.5, 0.5, 2 * n).tolist():
        k[round(c + math.sin(angle) * t * (length - 1)), round(c + math.cos(angle) * t * (length - 1))] += 1
    k = (k / k.sum()).to(x.dtype)
    C, r = x.shape[1], n // 2
    return F.conv2d(F.pad(x, (r, r, r, r), mode="replicate"), k.view(1, 1, n, n).repeat(C, 1, 1, 1), groups=C)


def _gauss(x, sigma):
    """Separable Gaussian blur of (N,C,H,W), radius 3 sigma (at least 1), edges replicated."""
    r = max(1, int(math.ceil(3 * sigma)))
    k = torch.arange(-r, r + 1, dtype=torch.float32)
    k = torch.exp(-k ** 2 / (2 * sigma * sigma))
    k = (k / k.sum()).to(x.dtype)
    C = x.shape[1]
    x = F.conv2d(F.pad(x, (r, r, 0, 0), mode="replicate"), k.view(1, 1, 1, -1).repeat(C, 1, 1, 1), groups=C)
    return F.conv2d(F.pad(x, (0, 0, r, r), mode="replicate"), k.view(1, 1, -1, 1).repeat(C, 1, 1, 1), groups=C)


def shape_aug(x, labels, gen, p=0.5, frame_p=0.08):
    """Changes to the drawing itself, so that unseen type faces and art are less of a surprise,
    on a random subset of the crops (probability `p` each): a smooth elastic warp (up to about
    1.5 % of the crop), ink strokes thickened or thinned by a blended 3x3 min/max filter, and,
    with probability `frame_p`, a thin rectangular frame drawn round the face of a tile that is
    not the white dragon or a face-down tile (so a frame alone does not make a white dragon).
    x: (N,3,H,W) in [0,1]; labels: (N,) class indices. Returns a new tensor."""
    N, _, H, W = x.shape
    x = x.clone()
    el = torch.nonzero(torch.rand(N, generator=gen) < p).flatten()
    if len(el):
        amp = torch.empty(len(el), 1, 1, 1).uniform_(0.005, 0.03, generator=gen)
        field = torch.randn(len(el), 2, 4, 3, generator=gen) * amp
        field = F.interpolate(field, size=(H, W), mode="bicubic", align_corners=True).permute(0, 2, 3, 1)
        base = F.affine_grid(torch.eye(2, 3).unsqueeze(0).expand(len(el), 2, 3), (len(el), 3, H, W), align_corners=False)
        x[el] = F.grid_sample(x[el], base + field, mode="bilinear", padding_mode="border", align_corners=False)
    st = torch.nonzero(torch.rand(N, generator=gen) < p * 0.6).flatten()
    if len(st):
        xs = x[st]
        thicker = (torch.rand(len(st), 1, 1, 1, generator=gen) < 0.5).float()
        f = thicker * -F.max_pool2d(-xs, 3, stride=1, padding=1) + (1 - thicker) * F.max_pool2d(xs, 3, stride=1, padding=1)
        t = torch.empty(len(st), 1, 1, 1).uniform_(0.3, 0.9, generator=gen)
        x[st] = xs * (1 - t) + f * t  # min filter: dark strokes thicker; max filter: thinner
    if frame_p > 0:
        skip = {CLS_INDEX["5z"], CLS_INDEX["back"]}
        u = lambda lo, hi: torch.empty(1).uniform_(lo, hi, generator=gen).item()
        for i in torch.nonzero(torch.rand(N, generator=gen) < frame_p).flatten().tolist():
            if int(labels[i]) in skip:
                continue
            inx, iny = int(round(u(0.1, 0.2) * W)), int(round(u(0.08, 0.16) * H))
            th = 1 if H < 80 else 2
            col = torch.rand(3, generator=gen) * torch.tensor([0.5, 0.5, 0.8])
            a = u(0.5, 1.0)
            for (y0, y1, x0, x1) in ((iny, iny + th, inx, W - inx), (H - iny - th, H - iny, inx, W - inx),
                                     (iny, H - iny, inx, inx + th), (iny, H - iny, W - inx - th, W - inx)):
                x[i, :, y0:y1, x0:x1] = x[i, :, y0:y1, x0:x1] * (1 - a) + col.view(3, 1, 1) * a
    return x


def ink_aug(x, gen, p=0.25, outline=0.35):
    """One-ink sets: on a random subset of the crops (probability `p` each), the drawing is
    printed again in a single dark ink on the face's own colour, as mono-ink and line-art sets
    print it (a colour bird, flower or dragon becomes a black one); on `outline` of those, filled
    shapes become their outlines (ink strength minus its 3x3 erosion; thin lines stay lines).
    The ink strength of a pixel is how far any of its channels falls below the face colour (the
    80th percentile of the crop's middle), stretched so that faint anti-aliasing stays light.
    x: (N,3,H,W) in [0,1]. Returns a new tensor (the same one when no crop is chosen)."""
    N, _, H, W = x.shape
    sel = torch.nonzero(torch.rand(N, generator=gen) < p).flatten()
    if not len(sel):
        return x
    x = x.clone()
    xs = x[sel]
    n = len(sel)
    mid = xs[:, :, H // 6:H - H // 6, W // 6:W - W // 6].flatten(2)
    face = mid.quantile(0.8, dim=2)[:, :, None, None]  # (n,3,1,1)
    d = (face - xs).clamp_min(0).amax(1, keepdim=True) / face.amax(1, keepdim=True).clamp_min(0.2)
    lo = torch.empty(n, 1, 1, 1).uniform_(0.04, 0.15, generator=gen)
    gain = torch.empty(n, 1, 1, 1).uniform_(1.5, 3.5, generator=gen)
    s = ((d - lo) * gain).clamp(0, 1)
    o = torch.nonzero(torch.rand(n, generator=gen) < outline).flatten()
    if len(o):
        so = s[o]
        edge = so - (-F.max_pool2d(-so, 3, stride=1, padding=1))
        s[o] = (edge * torch.empty(len(o), 1, 1, 1).uniform_(1.2, 2.0, generator=gen)).clamp(0, 1)
    # ink: near-black half the time, otherwise a dark colour (navy, dark red, dark green, ...)
    black = (torch.rand(n, 1, 1, 1, generator=gen) < 0.5).float()
    ink = black * torch.rand(n, 1, 1, 1, generator=gen).expand(n, 3, 1, 1) * 0.15 + (1 - black) * torch.rand(n, 3, 1, 1, generator=gen) * 0.45
    x[sel] = face * (1 - s) + ink * s
    return x


def det_targets(quads_out, side, n_out, stride=4):
    """quads_out: list per image of (K,4,2) quads in output (network input) pixels.
    Returns hm (2,n,n), box (4,n,n), mask (n,n)."""
    hm = np.zeros((2, n_out, n_out), np.float32)
    box = np.zeros((4, n_out, n_out), np.float32)
    mask = np.zeros((n_out, n_out), np.float32)
    S = n_out * stride
    for q, sw in zip(quads_out, side):
        x0, y0 = q[:, 0].min(), q[:, 1].min()
        x1, y1 = q[:, 0].max(), q[:, 1].max()
        w, h = x1 - x0, y1 - y0
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, S), min(y1, S)
        if cx1 <= cx0 or cy1 <= cy0 or w < 4 or h < 4:
            continue
        vis = (cx1 - cx0) * (cy1 - cy0) / (w * h)
        if vis < MIN_VISIBLE:
            continue
        x0, y0, x1, y1 = cx0, cy0, cx1, cy1
        w, h = x1 - x0, y1 - y0
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < n_out and 0 <= iy < n_out):
            continue
        sx = max(0.7, w / stride / 6.0)
        sy = max(0.7, h / stride / 6.0)
        rx, ry = int(3 * sx) + 1, int(3 * sy) + 1
        xs = np.arange(max(0, ix - rx), min(n_out, ix + rx + 1))
        ys = np.arange(max(0, iy - ry), min(n_out, iy + ry + 1))
        gx = np.exp(-((xs + 0.5 - cx) ** 2) / (2 * sx * sx))
        gy = np.exp(-((ys + 0.5 - cy) ** 2) / (2 * sy * sy))
        g = gy[:, None] * gx[None, :]
        ch = 1 if sw else 0
        sub = hm[ch, ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1]
        np.maximum(sub, g, out=sub)
        hm[ch, iy, ix] = 1.0
        box[:, iy, ix] = [cx - ix, cy - iy, math.log(w / stride), math.log(h / stride)]
        mask[iy, ix] = 1.0
    return hm, box, mask


def det_batch(images, quads, sideways, idx, gen, out_size=320, aug=True):
    n = len(idx)
    S = images.shape[1]
    if aug:
        M, rot90 = rand_affine(n, gen, out_size, S)
    else:
        sc = S / out_size
        M = np.tile(np.array([[[sc, 0, 0], [0, sc, 0]]], np.float64), (n, 1, 1))
        rot90 = [False] * n
    x = warp_batch(images[idx], M, out_size, out_size)
    if aug:
        x = photometric(x, gen)
    n_out = out_size // 4
    hms, boxes, masks = [], [], []
    for j, i in enumerate(idx):
        q = quads[i]
        if len(q):
            A = M[j][:, :2]
            Ainv = np.linalg.inv(A)
            qo = (q.reshape(-1, 2) - M[j][:, 2]) @ Ainv.T
            qo = qo.reshape(len(q), -1, 2)
        else:
            qo = q
        sw = sideways[i] ^ rot90[j] if len(q) else sideways[i]
        hm, bx, mk = det_targets(qo, sw, n_out)
        hms.append(hm)
        boxes.append(bx)
        masks.append(mk)
    return x, torch.from_numpy(np.stack(hms)), torch.from_numpy(np.stack(boxes)), torch.from_numpy(np.stack(masks))


# ----------------------------------------------------------------------------
# Classifier data


def _extract_patch(im, q, ctx=PATCH_CTX, size=PATCH):
    """Crop an axis-aligned region ctx x the tile's bounding box, resized to size x size."""
    x0, y0 = q[:, 0].min(), q[:, 1].min()
    x1, y1 = q[:, 0].max(), q[:, 1].max()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = (x1 - x0) * ctx, (y1 - y0) * ctx
    # PIL crop pads with black outside; fine (rare, scenes keep tiles inside)
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    return np.asarray(im.transform((size, size), Image.EXTENT, box, Image.BILINEAR))


def cls_batch(patches, labels, sideways, idx, gen, out_h=64, out_w=48, aug=True, margin=1.08, grey=0.08, shuffle=0.0, shape=0.0, ink=0.0, lowres=0.0, sharpen=0.0, cut=0.0, blur=0.0):
    """Affine-sample a (jittered) tile box from each context patch into out_h x out_w.
    Sideways tiles are stood up (rotated +-90 deg); 180 deg rotation at random."""
    n = len(idx)
    P = patches.shape[1]
    Ms = []
    for j, i in enumerate(idx):
        # tile box in patch px: centred, half-size P/(2*ctx)
        half = P / (2 * PATCH_CTX) * margin
        hx, hy = half, half
        cx = cy = P / 2
        a = 0.0
        if sideways[i]:
            a = math.pi / 2 * (1 if torch.rand(1, generator=gen).item() < 0.5 else -1)
        if aug:
            if torch.rand(1, generator=gen).item() < 0.5:
                a += math.pi
            a += math.radians(torch.empty(1).uniform_(-12, 12, generator=gen).item())
            sx = torch.empty(1).uniform_(0.85, 1.18, generator=gen).item()
            sy = sx * torch.empty(1).uniform_(0.9, 1.1, generator=gen).item()
            cx += torch.empty(1).uniform_(-0.1, 0.1, generator=gen).item() * 2 * half
            cy += torch.empty(1).uniform_(-0.1, 0.1, generator=gen).item() * 2 * half
        else:
            sx = sy = 1.0
        # output px (u in [0,ow], v in [0,oh]) -> unit square [-1,1] -> rotate -> patch px
        ca, sa = math.cos(a), math.sin(a)
        # unit coords: ux = (u - ow/2)/(ow/2), uy = (v - oh/2)/(oh/2)
        # box-local (pre-rotation) in patch px: bx = ux*hx*sx, by = uy*hy*sy (for the stood-up tile)
        # sideways tiles: the patch box is landscape; rotating the sampling grid by 90 deg maps
        # the output's long (vertical) axis onto the patch's horizontal axis.
        L = np.array([[hx * sx / (out_w / 2), 0], [0, hy * sy / (out_h / 2)]])
        R = np.array([[ca, -sa], [sa, ca]])
        A = R @ L
        t = np.array([cx, cy]) - A @ np.array([out_w / 2, out_h / 2])
        Ms.append(np.concatenate([A, t[:, None]], 1))
    x = warp_batch(patches[idx], np.stack(Ms), out_h, out_w)
    if aug and shape > 0:
        x = shape_aug(x, labels[idx], gen, p=shape)
    if aug and ink > 0:
        x = ink_aug(x, gen, p=ink)
    if aug and lowres > 0:
        x = lowres_aug(x, gen, p=lowres)
    if aug and blur > 0:
        # before the trainer's noise: a blurred photo's noise is not blurred
        x = blur_aug(x, gen, p=blur)
    if aug:
        x = photometric(x, gen, grey=grey, shuffle=shuffle)
    if aug and sharpen > 0:
        # after the blur and noise, as a phone sharpens what its optics and sensor gave
        x = sharpen_aug(x, gen, p=sharpen)
    if aug and cut > 0:
        # last: the pipeline repeats the photo's final pixels, noise, blur and all
        x = cut_aug(x, gen, p=cut)
    return x, torch.from_numpy(labels[idx])


# ----------------------------------------------------------------------------
# Growing datasets: read a set while the generator is still writing it
# (<dir>.partial, renamed to <dir> when complete). refresh() picks up new items.


def resolve_dir(folder):
    """folder, else folder.partial (being written); 'x.partial' falls back to 'x' once renamed."""
    if folder.endswith(".partial") and not os.path.isdir(folder) and os.path.isdir(folder[:-8]):
        return folder[:-8]
    if os.path.isdir(folder):
        return folder
    if os.path.isdir(folder + ".partial"):
        return folder + ".partial"
    return None


def _listdir(path):
    """Sorted entries, or None when the folder vanished (a growing set renamed into place)."""
    try:
        return sorted(os.listdir(path))
    except FileNotFoundError:
        return None


def is_complete(folder):
    return os.path.exists(os.path.join(folder, "manifest.json"))


class GrowingScenes:
    """Scenes for both trainers; kind = 'det' (letterboxed 512 images) or 'cls' (tile patches)."""

    def __init__(self, folders, kind, limit=None, codes=None, patch=PATCH):
        self.folders = folders
        self.kind = kind
        self.limit = limit
        self.codes = set(codes) if codes else None  # cls: keep only these classes
        self.patch = patch
        self.seen = set()
        self.items = []        # det: (image, quads, sideways); cls: per-scene (patches, labels, sideways)
        self.complete = False

    def refresh(self, max_new=100000):
        done = True
        new = 0
        for folder in self.folders:
            d = resolve_dir(folder)
            if d is None:
                done = False
                continue
            if not is_complete(d):
                done = False
            lab_dir = os.path.join(d, "labels")
            if not os.path.isdir(lab_dir):
                continue
            names = _listdir(lab_dir)
            if names is None:  # renamed from .partial while we looked; next refresh
                done = False
                continue
            for name in names:
                if not name.endswith(".json"):
                    continue
                key = (folder, name)
                if key in self.seen:
                    continue
                if self.limit is not None and len(self.seen) >= self.limit:
                    self.complete = True
                    return new
                if new >= max_new:
                    return new
                try:
                    with open(os.path.join(lab_dir, name)) as f:
                        lab = json.load(f)
                    ip = os.path.join(d, "images", name[:-5] + ".jpg")
                    im = Image.open(ip)
                    im.load()
                    im = im.convert("RGB")
                except Exception:
                    continue  # still being written; next refresh
                self.seen.add(key)
                self.items.append(self._prepare(im, lab))
                new += 1
        self.complete = done
        return new

    def _prepare(self, im, lab):
        if self.kind == "det":
            S = DET_CACHE_SIZE
            W, H = im.size
            r = S / max(W, H)
            nw, nh = max(1, round(W * r)), max(1, round(H * r))
            img = np.full((S, S, 3), 127, np.uint8)
            ox, oy = (S - nw) // 2, (S - nh) // 2
            img[oy:oy + nh, ox:ox + nw] = np.asarray(im.resize((nw, nh), Image.BILINEAR))
            sx, sy = nw / W, nh / H
            tiles = lab["tiles"]
            q = np.stack([_pad8(tile_quad(t)) for t in tiles]) if tiles else np.zeros((0, 8, 2), np.float32)
            q = (q * np.array([sx, sy], np.float32) + np.array([ox, oy], np.float32)).astype(np.float32)
            return img, q, np.array([bool(t.get("sideways")) for t in tiles], bool)
        patches, labels, side = [], [], []
        for t in lab["tiles"]:
            if t["code"] not in CLS_INDEX or (self.codes and t["code"] not in self.codes):
                continue
            x, y, w, h = t["box"]
            if w < 6 or h < 6:
                continue
            patches.append(_extract_patch(im, np.array([[x, y], [x + w, y + h]], np.float32), size=self.patch))
            labels.append(CLS_INDEX[t["code"]])
            side.append(bool(t.get("sideways")))
        if not patches:
            return np.zeros((0, self.patch, self.patch, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, bool)
        return np.stack(patches), np.array(labels, np.int64), np.array(side, bool)

    def __len__(self):
        return len(self.items)

    # det view
    def det_arrays(self, idx):
        imgs = np.stack([self.items[i][0] for i in idx])
        return imgs, [self.items[i][1] for i in idx], [self.items[i][2] for i in idx]


class GrowingTiles:
    """Single-tile crops tiles/<code>/*.jpg, read as they appear."""

    def __init__(self, folders, limit=None, codes=None, patch=PATCH):
        self.folders = folders
        self.limit = limit
        self.codes = set(codes) if codes else None  # keep only these classes
        self.patch = patch
        self.seen = set()
        self.patches, self.labels = [], []
        self.complete = not folders

    def refresh(self, max_new=100000):
        done = True
        new = 0
        for folder in self.folders:
            d = resolve_dir(folder)
            if d is None:
                done = False
                continue
            if not is_complete(d):
                done = False
            td = os.path.join(d, "tiles")
            if not os.path.isdir(td):
                continue
            codes = _listdir(td)
            if codes is None:
                done = False
                continue
            for code in codes:
                if code not in CLS_INDEX or (self.codes and code not in self.codes):
                    continue
                names = _listdir(os.path.join(td, code))
                if names is None:  # the set was renamed from .partial mid-scan; next refresh
                    done = False
                    break
                for name in names:
                    key = (folder, code, name)
                    if key in self.seen or not name.endswith(".jpg"):
                        continue
                    if self.limit is not None and len(self.seen) >= self.limit:
                        self.complete = True
                        return new
                    if new >= max_new:
                        return new
                    try:
                        im = Image.open(os.path.join(td, code, name))
                        im.load()
                        im = im.convert("RGB")
                    except Exception:
                        continue
                    self.seen.add(key)
                    self.patches.append(tile_patch(im, self.patch))
                    self.labels.append(CLS_INDEX[code])
                    new += 1
        self.complete = done
        return new


def tile_patch(im, size=PATCH):
    W, H = im.size
    if W > H:  # a sideways single tile: stand it up
        im = im.transpose(Image.ROTATE_90)
        W, H = H, W
    q = np.array([[0, 0], [W, H]], np.float32)
    arr = np.asarray(im)
    pw, ph = int(W * (PATCH_CTX - 1) / 2) + 1, int(H * (PATCH_CTX - 1) / 2) + 1
    arr = np.pad(arr, ((ph, ph), (pw, pw), (0, 0)), mode="edge")
    return _extract_patch(Image.fromarray(arr), q + np.array([pw, ph], np.float32), size=size)


def cls_pool(scenes, tiles):
    """Concatenate the current scene patches and tile patches into training arrays. The scenes'
    and tiles' own patch lists are then pointed at views of the new array, so each patch is held
    once (twice only while a rebuild copies them: 160 px patches of all classes take ~8 GB)."""
    keep = [i for i, it in enumerate(scenes.items) if len(it[1])]
    P = [scenes.items[i][0] for i in keep]
    L = [scenes.items[i][1] for i in keep]
    S = [scenes.items[i][2] for i in keep]
    if tiles is not None and tiles.patches:
        P.extend(p[None] for p in tiles.patches)
        L.append(np.array(tiles.labels, np.int64))
        S.append(np.zeros(len(tiles.labels), bool))
    if not P:
        return None
    pool = np.concatenate(P)
    del P
    o = 0
    for i in keep:
        it = scenes.items[i]
        n = len(it[1])
        scenes.items[i] = (pool[o:o + n],) + tuple(it[1:])
        o += n
    if tiles is not None:
        for j in range(len(tiles.patches)):
            tiles.patches[j] = pool[o + j]
    _release_freed_memory()
    return pool, np.concatenate(L), np.concatenate(S)


def _release_freed_memory():
    """Hand the patches just freed back to the system: glibc keeps small freed blocks in the heap,
    and a rebuild of the pool would otherwise hold the old patches, the old pool and the new one."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
