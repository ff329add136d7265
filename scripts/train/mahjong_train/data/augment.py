"""Batched, vectorised photometric and shape augmentation in torch (the crops' and scenes' looks)."""
import math

import torch
import torch.nn.functional as F

from .sets import CLS_INDEX


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
    was trained on this view (stops 45 and 56 of the experiment log, `git show 6f8cb0f:model/HISTORY.md`). x: (N,3,H,W). Returns a new
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


