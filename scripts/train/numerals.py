#!/usr/bin/python3
"""The numeral reader: which numeral, 1 to 4, a flower or season tile prints, or none.

Flowers and seasons differ most between sets: each set draws its own plant or scene, and what
they share is the character (梅蘭菊竹, 春夏秋冬) and the numeral 1-4, usually in a corner
(../shared/data/README.md). The flower readers lean on the pictures: a clear "3" on a held-out
design is still read as the 2 of another group. This network is taught numerals alone, on crops
drawn here in PIL whose label is only the numeral: a tile face with random plant strokes,
petals and a CJK character (which say nothing about the label) and, on four in five, a numeral
1-4 in one of the system's fonts (never the held-out ones: WenQuanYi Zen Hei and AR PL UMing),
or 一二三四 (two sets in five), anywhere on the face, at 10-32 % of its height, upside down on half of them; then perspective,
a small tile's pixels, blur, JPEG and the trainer's colour jitter.

It is the classifier network (width m), started from flower reader phase 1, with a new 5-way
head (1, 2, 3, 4, none). flowers.onnx multiplies its split into the flower mix
(train.py export --num-run, FlowerMix): flower k gets (p(numeral of k) + p(none) / 4) ^ w.

  /usr/bin/python3 scripts/train/numerals.py train --run scripts/train/runs/num3 --init scripts/train/runs/flw1/ckpt.pt --deadline-min 45 --threads 2 --seed 7
  /usr/bin/python3 scripts/train/numerals.py sheet --out /tmp/numerals.png     (a contact sheet of the crops)

With --renderer (stop 64, `run_num4.sh`) it learns instead from the scene generator's own flower
and season faces (scene sets --train, single-tile sets --tiles, cut and augmented as the flower
reader's crops), labelled by the numeral they print, its head folded from the starting reader's
(fold_head); --val names a scene set whose flowers' numerals are checked at each checkpoint.

Checkpoints every --ckpt-min minutes; a restarted run resumes (model, EMA, optimiser, step, RNG
of the trainer; the crop stream restarts from a seed derived from the step).
"""
import argparse
import io
import math
import os
import random
import re
import subprocess
import sys

import numpy as np
import torch
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as D  # noqa: E402
from models import FLW_H, FLW_W, count_params  # noqa: E402

NUM_CLASSES = 5  # numerals 1..4, then none
NONE = 4
# the generator's held-out fonts (scripts/synth/faces.ts HOLDOUT_FONTS) stay out of training
HOLDOUT_FONT_FILES = ("wqy-zenhei", "uming")
CHARS = "梅蘭菊竹春夏秋冬花鳥風月福壽東南西北中發白萬筒條"
INKS = [(200, 30, 30), (30, 60, 170), (20, 120, 50), (25, 25, 25), (120, 40, 140), (200, 100, 20), (0, 110, 140), (160, 20, 90)]
FACES = [(250, 250, 245), (245, 238, 220), (240, 232, 205), (235, 240, 235), (252, 248, 236), (225, 225, 215)]
BODIES = [(20, 110, 70), (30, 70, 150), (220, 180, 40), (235, 235, 230), (200, 90, 40), (30, 30, 30), (110, 170, 210), (180, 40, 50)]


def font_files():
    """(path, face index) of every system font but the held-out ones."""
    out = subprocess.run(["fc-list", "--format", "%{file}|%{index}\n"], capture_output=True, text=True, check=True).stdout
    fonts = []
    for line in sorted(set(out.splitlines())):
        path, _, idx = line.partition("|")
        base = os.path.basename(path).lower()
        if any(h in base for h in HOLDOUT_FONT_FILES) or "math" in base:
            continue
        fonts.append((path, int(idx or 0)))
    if not fonts:
        raise SystemExit("numerals.py: no fonts found (fc-list); install fonts-noto-cjk and fonts-dejavu")
    return fonts


CJK_FONT = re.compile(r"cjk|arphic|kai|bsmi|gbsn|cns11643|cwtex|ipa|takao|japanese|hanamin|lxgw", re.I)


class Fonts:
    """The fonts, and each glyph drawn once at GLYPH_PX (a mask), then scaled: loading a CJK font
    file for every size would take most of the time."""

    GLYPH_PX = 64

    def __init__(self):
        self.files = font_files()
        self.cjk = [f for f in self.files if CJK_FONT.search(f[0])]  # the ones that draw 梅蘭菊竹...
        self.fonts, self.masks = {}, {}

    def mask(self, r, s, cjk=False):
        """The glyph mask (mode L, tight box plus 2 px) of s in a random font, at GLYPH_PX."""
        files = self.cjk if cjk and self.cjk else self.files
        key = files[r.randrange(len(files))]
        if (key, s) not in self.masks:
            if key not in self.fonts:
                try:
                    self.fonts[key] = ImageFont.truetype(key[0], self.GLYPH_PX, index=key[1])
                except OSError:
                    self.fonts[key] = ImageFont.truetype(self.files[0][0], self.GLYPH_PX, index=self.files[0][1])
            f = self.fonts[key]
            l, t, rr, b = f.getbbox(s)
            m = Image.new("L", (max(1, rr - l) + 4, max(1, b - t) + 4), 0)
            ImageDraw.Draw(m).text((2 - l, 2 - t), s, font=f, fill=255)
            self.masks[(key, s)] = m
        return self.masks[(key, s)]


def jitter(c, r, k=25):
    return tuple(max(0, min(255, v + r.randint(-k, k))) for v in c)


def _plant(draw, r, box):
    """Random stems, leaves and petals inside box: a picture that says nothing about the numeral.
    One in three is drawn in one dark ink, densely, as line art (as held-out sets draw theirs)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    ink = jitter(r.choice([(20, 20, 20), (20, 60, 30), (20, 30, 90), (60, 30, 20)]), r, 15) if r.random() < 0.35 else None
    many = r.choice([1, 2]) if ink is not None else 1
    colour = lambda pool: ink if ink is not None else jitter(r.choice(pool), r)
    for _ in range(r.randint(0, 10) * many):
        col = colour(INKS + [(60, 140, 60), (230, 120, 160), (240, 180, 40)])
        x, y = r.uniform(x0, x1), r.uniform(y0, y1)
        pts = [(x, y)]
        ang = r.uniform(0, 2 * math.pi)
        for _ in range(r.randint(2, 6)):
            ang += r.uniform(-0.8, 0.8)
            step = r.uniform(0.05, 0.25) * h
            x, y = x + math.cos(ang) * step, y + math.sin(ang) * step
            pts.append((x, y))
        draw.line(pts, fill=col, width=r.randint(1, max(2, int(w * 0.06))), joint="curve")
    for _ in range(r.randint(0, 8) * many):  # leaves: pointed ovals, filled or outlined
        col = colour([(40, 130, 60), (20, 90, 40), (90, 150, 50)] + INKS)
        cx, cy = r.uniform(x0, x1), r.uniform(y0, y1)
        ln, wd, ang = r.uniform(0.06, 0.22) * h, r.uniform(0.02, 0.07) * h, r.uniform(0, math.pi)
        c, sn = math.cos(ang), math.sin(ang)
        pts = [(cx + c * ln * t - sn * wd * math.sin(math.pi * (t + 1) / 2) * side, cy + sn * ln * t + c * wd * math.sin(math.pi * (t + 1) / 2) * side)
               for side, ts in ((1, (-1, -0.5, 0, 0.5, 1)), (-1, (1, 0.5, 0, -0.5, -1))) for t in ts]
        if r.random() < 0.6:
            draw.polygon(pts, fill=col)
        else:
            draw.line(pts + pts[:1], fill=col, width=r.randint(1, 3))
    for _ in range(r.randint(0, 8) * many):
        col = colour(INKS + [(230, 120, 160), (240, 180, 40), (250, 90, 90)])
        cx, cy = r.uniform(x0, x1), r.uniform(y0, y1)
        rx, ry = r.uniform(0.02, 0.1) * w, r.uniform(0.02, 0.1) * h
        if r.random() < 0.5:
            draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=col)
        else:
            draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), outline=col, width=r.randint(1, 3))


def _text(img, r, fonts, s, size, fill, anchor_xy, angle=0.0, cjk=False):
    """Draw s (from a random font, `size` px tall) centred at anchor_xy, turned by `angle` degrees."""
    m = fonts.mask(r, s, cjk)
    k = size / fonts.GLYPH_PX
    layer = m.resize((max(2, round(m.size[0] * k)), max(2, round(m.size[1] * k))), Image.BILINEAR)
    if angle:
        layer = layer.rotate(angle, resample=Image.BILINEAR, expand=True)
    x, y = anchor_xy
    img.paste(Image.new("RGB", layer.size, fill), (int(x - layer.size[0] / 2), int(y - layer.size[1] / 2)), layer)


def _style(r):
    """What one set's flowers share: face, body, frame, where and how the numeral is printed."""
    return {
        "face": jitter(r.choice(FACES), r, 12),
        "body": jitter(r.choice(BODIES), r) if r.random() < 0.85 else None,
        "thick": r.uniform(0.04, 0.16),
        "side": r.choice([(0, 1), (0.6, 1), (-0.6, 1), (1, 0), (0, -1)]),
        "layer": r.random() < 0.5,
        "rad": r.uniform(0.02, 0.15),
        "frame": jitter(r.choice(INKS), r) if r.random() < 0.2 else None,
        "num_size": r.uniform(0.10, 0.32),
        "num_ink": jitter(r.choice(INKS), r),
        "num_at": (r.random() < 0.5, r.random() < 0.6) if r.random() < 0.7 else None,  # a corner (left?, top?) or anywhere
        "ring": r.choices([None, "ring", "box"], [0.8, 0.1, 0.1])[0],
        "cn": r.random() < 0.4,  # 一二三四 rather than 1234
        "font_seed": r.random(),
    }


def _tile(img, r, fonts, st, box, digit):
    """One tile face in box, printing `digit` (0..3) or no numeral (NONE), in the set's style."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    fw, fh = x1 - x0, y1 - y0
    rad = st["rad"] * fw
    if st["body"] is not None:  # the tile's thickness below or beside the face
        t = st["thick"] * fh
        dx, dy = st["side"][0] * t, st["side"][1] * t
        d.rounded_rectangle((x0 + dx, y0 + dy, x1 + dx, y1 + dy), radius=rad, fill=st["body"])
        if st["layer"]:  # a white layer between the face and the back
            d.rounded_rectangle((x0 + dx / 2, y0 + dy / 2, x1 + dx / 2, y1 + dy / 2), radius=rad, fill=(232, 230, 220))
    d.rounded_rectangle((x0, y0, x1, y1), radius=rad, fill=st["face"])
    if st["frame"] is not None:
        k = 0.08 * fw
        d.rounded_rectangle((x0 + k, y0 + k, x1 - k, y1 - k), radius=rad * 0.6, outline=st["frame"], width=2)
    inner = (x0 + 0.08 * fw, y0 + 0.06 * fh, x1 - 0.08 * fw, y1 - 0.06 * fh)
    _plant(d, r, inner)
    size = st["num_size"] * fh
    if st["num_at"] is not None:
        left, top = st["num_at"]
        px = inner[0] + size * 0.35 if left else inner[2] - size * 0.35
        py = inner[1] + size * 0.5 if top else inner[3] - size * 0.5
    else:
        px, py = r.uniform(inner[0], inner[2]), r.uniform(inner[1], inner[3])
    if r.random() < 0.75:  # sets print the numeral on clear face: the picture keeps off it
        k = size * 0.62
        d.ellipse((px - k, py - k, px + k, py + k), fill=st["face"])
    for _ in range(r.choices([0, 1, 2], [0.2, 0.65, 0.15])[0]):  # the character(s) of the tile, mostly clear of the numeral
        cs = r.uniform(0.08, 0.45) * fh
        for _ in range(4):
            cx, cy = r.uniform(inner[0] + cs / 3, inner[2] - cs / 3), r.uniform(inner[1] + cs / 3, inner[3] - cs / 3)
            if abs(cx - px) + abs(cy - py) > (cs + size) * 0.6 or r.random() < 0.15:
                break
        _text(img, r, fonts, r.choice(CHARS), cs, jitter(r.choice(INKS), r), (cx, cy), cjk=True)
    if digit == NONE:
        return
    ink = st["num_ink"]
    if st["ring"] == "ring":
        rr = size * 0.62
        d.ellipse((px - rr, py - rr, px + rr, py + rr), outline=ink, width=max(1, int(size * 0.07)))
    elif st["ring"] == "box":
        rr = size * 0.6
        d.rectangle((px - rr * 0.85, py - rr, px + rr * 0.85, py + rr), outline=ink, width=max(1, int(size * 0.07)))
    fr = random.Random(st["font_seed"])  # the set's numeral font
    _text(img, fr, fonts, "一二三四"[digit] if st["cn"] else str(digit + 1), size, ink, (px, py), angle=r.uniform(-6, 6), cjk=st["cn"])


def sample(r, fonts):
    """One 96x72 crop (uint8 HxWx3) of a tile face and its label: 0..3 for the numerals 1..4, 4 for
    none. Flowers lie in a row, so the crop often shows the edges of the tiles beside it, in the
    same style, with other numerals."""
    S = 2  # drawn at twice the size, then shrunk
    H, W = FLW_H * S, FLW_W * S
    table = tuple(r.randint(0, 255) for _ in range(3))
    img = Image.new("RGB", (W, H), table)
    d = ImageDraw.Draw(img)
    if r.random() < 0.5:  # some texture on the table
        for _ in range(r.randint(3, 30)):
            c = jitter(table, r, 60)
            x, y, rad = r.uniform(0, W), r.uniform(0, H), r.uniform(2, 20)
            d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=c)
    # the tile as the pipeline crops it: its box times 1.08, with some error in place and size
    m = r.uniform(1.0, 1.3)
    fw, fh = W / m * r.uniform(0.85, 1.0), H / m * r.uniform(0.85, 1.0)
    cx, cy = W / 2 + r.uniform(-0.06, 0.06) * W, H / 2 + r.uniform(-0.05, 0.05) * H
    st = _style(r)
    label = r.randrange(4) if r.random() < 0.8 else NONE
    gap = r.uniform(0.0, 0.08) * fw
    for side in (-1, 1):  # the neighbours in the row
        if r.random() < 0.6:
            nx = cx + side * (fw + gap)
            ny = cy + r.uniform(-0.04, 0.04) * fh
            other = NONE if label == NONE else r.choice([k for k in range(4) if k != label] + [label] * 0)
            _tile(img, r, fonts, st, (nx - fw / 2, ny - fh / 2, nx + fw / 2, ny + fh / 2), other)
    _tile(img, r, fonts, st, (cx - fw / 2, cy - fh / 2, cx + fw / 2, cy + fh / 2), label)
    if r.random() < 0.5:  # the tile upside down: the same label
        img = img.rotate(180)
    # perspective and tilt: the four corners moved a little
    if r.random() < 0.8:
        j = lambda: r.uniform(-0.07, 0.07)
        quad = (W * j(), H * j(), W * j(), H * (1 + j()), W * (1 + j()), H * (1 + j()), W * (1 + j()), H * j())
        img = img.transform((W, H), Image.QUAD, quad, resample=Image.BILINEAR, fillcolor=table)
    # a small tile's pixels: shrunk to a tile height of 26..192 px, then to the crop size
    th = r.uniform(26, H)
    if th < FLW_H:
        small = img.resize((max(8, round(W * th / H)), max(8, round(th))), Image.BOX)
        img = small.resize((FLW_W, FLW_H), Image.BILINEAR)
    else:
        img = img.resize((FLW_W, FLW_H), Image.BOX)
    if r.random() < 0.3:
        img = img.filter(ImageFilter.GaussianBlur(r.uniform(0.3, 1.3)))
    if r.random() < 0.5:
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=r.randint(30, 90))
        img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    return np.asarray(img, dtype=np.uint8), label


class Stream(torch.utils.data.IterableDataset):
    """Endless batches of crops (uint8 N x H x W x 3) and labels, from a seed."""

    def __init__(self, seed, batch):
        self.seed, self.batch = seed, batch

    def __iter__(self):
        r = random.Random(self.seed)
        fonts = Fonts()
        while True:
            xs, ys = zip(*(sample(r, fonts) for _ in range(self.batch)))
            yield torch.from_numpy(np.stack(xs)), torch.tensor(ys)


def to_input(u8, gen, aug=True):
    x = u8.permute(0, 3, 1, 2).float() / 255.0
    return D.photometric(x, gen, strength=0.8, grey=0.3, shuffle=0.25) if aug else x


def make_net(init=None):
    """The classifier network (width m) with a 5-way head; its trunk from `init` (a flw/cls checkpoint)."""
    from train import head_net
    return head_net(init, NUM_CLASSES, "numerals")


def fold_head(net, init):
    """Start the numeral head from a flower reader's own head: numeral j's row is the mean of the
    rows of flower j and season j (the pair that prints it); `none` starts far below them."""
    st = torch.load(init, map_location="cpu")
    if st.get("extra", {}).get("numerals"):
        return
    from train import F0
    w, b = st["ema"]["fc.weight"], st["ema"]["fc.bias"]
    with torch.no_grad():
        for j in range(4):
            net.fc.weight[j] = (w[F0 + j] + w[F0 + 4 + j]) / 2
            net.fc.bias[j] = (b[F0 + j] + b[F0 + 4 + j]) / 2
        net.fc.weight[NONE] = 0.0
        net.fc.bias[NONE] = net.fc.bias[:4].mean() - 6.0


def renderer_batches(a, gen, run):
    """--renderer: the scene generator's own flower and season faces (scene sets --train,
    single-tile sets --tiles), cut and augmented as the flower reader's crops, labelled by the
    numeral they print: flower k and season k both give k (never `none`)."""
    from train import F0, log, wait_for_items
    scenes = D.GrowingScenes(a.train, "cls", codes=D.FLOWER_CODES, patch=D.FLW_PATCH)
    tiles = D.GrowingTiles(a.tiles or [], codes=D.FLOWER_CODES, patch=D.FLW_PATCH)
    wait_for_items(scenes, 50, "scenes", a.run)
    tiles.refresh()
    patches, labels, side = D.cls_pool(scenes, tiles)
    log(a.run, f"numerals --renderer: {len(labels)} flower crops ({len(scenes)} scenes, {len(tiles.labels)} single tiles)")
    while True:
        idx = torch.randint(0, len(labels), (a.batch,), generator=gen).numpy()
        x, y = D.cls_batch(patches, labels, side, idx, gen, out_h=FLW_H, out_w=FLW_W, grey=0.35, shuffle=0.25,
                           shape=a.shape, blur=a.blur)
        yield x, (y - F0) % 4


def renderer_check(a):
    """The numeral accuracy on the true boxes of a scene set's flowers (--val), unaugmented, cut as
    flower_mix.py cuts them."""
    from flower_mix import crops, pool_of
    xs = list(crops(pool_of(a.val, True)))
    n = sum(len(y) for _, y in xs)

    def check(m):
        m.eval()
        with torch.no_grad():
            ok = sum((m(x)[:, :4].argmax(1) == y % 4).sum().item() for x, y in xs)
        m.train()
        return f"numeral accuracy on {a.val}'s {n} flowers {ok / max(1, n):.4f}"
    return check


def train(a):
    from train import log, run_head_steps, start_head_run
    run = start_head_run(a, make_net)
    net, ema, gen, step, frozen = run[0], run[1], run[3], run[4], run[6]
    if getattr(a, "renderer", False):
        if step == 0 and a.init:
            fold_head(net, a.init)
            ema.m.load_state_dict(net.state_dict())
        log(a.run, f"numerals --renderer: params {count_params(net)}, frozen BatchNorm {frozen}, start step {step}/{a.steps}")
        run_head_steps(a, run, renderer_batches(a, gen, a.run), "numerals", renderer_check(a) if a.val else None)
        return
    # a fixed synthetic check set, and the crop stream from a seed that moves on with the step
    vr, vf = random.Random(12345), Fonts()
    val = [sample(vr, vf) for _ in range(a.check)]
    vx = torch.from_numpy(np.stack([v[0] for v in val]))
    vy = torch.tensor([v[1] for v in val])
    loader = torch.utils.data.DataLoader(Stream(a.seed * 1000003 + step, a.batch), batch_size=None, num_workers=a.workers)
    log(a.run, f"numerals: params {count_params(net)}, frozen BatchNorm {frozen}, start step {step}/{a.steps}, {len(vf.files)} fonts")

    def check(m):
        with torch.no_grad():
            acc = (m(to_input(vx, gen, aug=False)).argmax(1) == vy).float().mean().item()
        return f"synthetic check crops {acc:.4f}"
    run_head_steps(a, run, ((to_input(u8, gen), y) for u8, y in loader), "numerals", check)


def sheet(a):
    r, fonts = random.Random(a.seed), Fonts()
    tiles = [sample(r, fonts) for _ in range(96)]
    out = Image.new("RGB", (12 * (FLW_W + 4), 8 * (FLW_H + 16)), (200, 200, 200))
    d = ImageDraw.Draw(out)
    for i, (x, y) in enumerate(tiles):
        cx, cy = (i % 12) * (FLW_W + 4), (i // 12) * (FLW_H + 16)
        out.paste(Image.fromarray(x), (cx, cy))
        d.text((cx + 2, cy + FLW_H + 1), "none" if y == NONE else str(y + 1), fill=(0, 0, 0))
    out.save(a.out)
    print(a.out)


def main():
    from train import add_head_run_args
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["train", "sheet"])
    add_head_run_args(ap, os.path.join(D.HERE, "runs", "num1"), batch=96, lr=1e-3, ckpt_min=4.0)
    ap.add_argument("--out", default="/tmp/numerals.png")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--check", type=int, default=600, help="train: synthetic crops in the fixed check set")
    ap.add_argument("--renderer", action="store_true", help="train on the generator's own flower faces (--train, --tiles), labelled by numeral, instead of crops drawn here")
    ap.add_argument("--train", nargs="*", default=[], help="--renderer: scene sets")
    ap.add_argument("--tiles", nargs="*", default=[], help="--renderer: single-tile sets")
    ap.add_argument("--val", default=None, help="--renderer: a scene set whose flowers' numerals are checked at each checkpoint")
    ap.add_argument("--shape", type=float, default=0.5, help="--renderer: data.shape_aug's share")
    ap.add_argument("--blur", type=float, default=0.3, help="--renderer: data.blur_aug's share")
    a = ap.parse_args()
    {"train": train, "sheet": sheet}[a.mode](a)


if __name__ == "__main__":
    main()
