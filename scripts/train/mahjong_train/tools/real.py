"""Real photographs in YOLO format -> a scene folder the trainers read (images/ + labels/*.json).

    PYTHONPATH=scripts/train /usr/bin/python3 -m mahjong_train.tools.real SRC OUT [--unmirror ONNX]
        [--exclude DIR ...] [--dense-until N] [--every K] [--unsquash]

SRC is a split of the "Chinese Mahjong Detection" v4 export (Roboflow Universe, CC BY 4.0; GitHub
alanchoi00/mahjong_detection, folder data/, brought here with the fetch tool and never committed):
SRC/images, SRC/labels (class cx cy w h, normalised) and a data.yaml naming the classes in SRC or
above it. Class names map to our codes as scripts/eval/real.ts maps them.

- --unmirror ONNX: the export's augmentation flipped about half its training photos left-right or
  top-bottom, and a mirrored character is no real tile. Each photo's tiles whose face is not
  symmetric are read by that classifier as they are and mirrored; a photo that reads better
  mirrored is flipped back (a flip both ways is a half turn, which is a real view).
- --exclude DIR...: photos whose multiset of tile codes (five tiles or more) equals that of a photo
  in one of these YOLO splits are left out: near-duplicates of the held-out photos.
- --dense-until N --every K: every photo before index N, then every K-th (the export holds nine
  augmented versions of each of its 450 photos).
- --unsquash: stretch a square photo back to 4:3 or 16:9 by its boxes (as eval:vision --real).
Writes OUT/manifest.json last, so a trainer reading the set while it grows knows when it is done.
"""
import argparse
import json
import math
import os
import re

import numpy as np
import torch
from PIL import Image

from ..data.batches import cls_batch
from ..data.sets import CLS_INDEX, _extract_patch
from ..models.nets import CLS_H, CLS_W, Classifier
from ..models.onnx_weights import load_onnx_into

CODES = {**{f"sc{n}": f"{n}m" for n in range(1, 10)}, **{f"sd{n}": f"{n}p" for n in range(1, 10)},
         **{f"sb{n}": f"{n}s" for n in range(1, 10)},
         "hwe": "1z", "hws": "2z", "hww": "3z", "hwn": "4z", "hdw": "5z", "hdg": "6z", "hdr": "7z",
         **{f"bf{n}": f"f{n}" for n in range(1, 5)}, **{f"bs{n}": f"f{n + 4}" for n in range(1, 5)}}
# kinds whose face reads the same mirrored left-right (dots, bamboo sticks, White, Red's 中)
SYMMETRIC = {f"{n}p" for n in range(1, 10)} | {f"{n}s" for n in range(2, 10)} | {"5z", "7z"}
STRETCHES = [1, 4 / 3, 3 / 4, 16 / 9, 9 / 16]
TILE_ASPECT = math.log(4 / 3)


def yaml_names(src):
    for d in (src, os.path.dirname(src), os.path.dirname(os.path.dirname(src))):
        p = os.path.join(d, "data.yaml")
        if os.path.exists(p):
            m = re.search(r"^names:\s*\[([^\]]*)\]", open(p).read(), re.M)
            if not m:
                raise SystemExit(f"{p}: no flow list 'names: [...]'")
            return [s.strip().strip("'\"") for s in m.group(1).split(",") if s.strip()]
    raise SystemExit(f"real: no data.yaml in {src} or the two folders above it (fetch alanchoi00/mahjong_detection and point at its data/<split>)")


def read_split(src):
    """[(image path, [(code, cx, cy, w, h), ...])] in file-name order."""
    names = yaml_names(src)
    out = []
    for f in sorted(os.listdir(os.path.join(src, "images"))):
        lab = os.path.join(src, "labels", os.path.splitext(f)[0] + ".txt")
        if not os.path.exists(lab):
            continue
        rows = []
        for line in open(lab):
            p = line.split()
            if len(p) < 5:
                continue
            name = names[int(p[0])]
            if name not in CODES:
                raise SystemExit(f"{lab}: unknown class {name}")
            rows.append((CODES[name], *map(float, p[1:5])))
        out.append((os.path.join(src, "images", f), rows))
    return out


def stretch_of(boxes):
    """As scripts/eval/real.ts stretchOf: among STRETCHES the width factor that brings boxes
    (w, h) closest to 4:3 standing or lying, 1 unless a third less misfit than as stored."""
    logs = [math.log(h / w) for w, h in boxes if w > 0 and h > 0]
    if len(logs) < 3:
        return 1.0

    def misfit(s):
        return sum(min(abs(v - math.log(s) - TILE_ASPECT), abs(v - math.log(s) + TILE_ASPECT)) for v in logs)
    best = min(STRETCHES, key=misfit)
    return best if misfit(best) < misfit(1) * 0.67 else 1.0


class MirrorJudge:
    """Reads a photo's asymmetric tiles with a shipped classifier, as they are and mirrored."""

    def __init__(self, onnx):
        self.net = Classifier("m")
        with torch.no_grad():
            load_onnx_into(self.net, onnx, torch.zeros(1, 3, CLS_H, CLS_W))
        self.net.eval()

    def margin(self, im, tiles):
        """Sum over asymmetric tiles of log p(code | as is) - log p(code | mirrored)."""
        keep = [t for t in tiles if t["code"] not in SYMMETRIC]
        if not keep:
            return 0.0
        W = im.size[0]
        total = []
        for k, img in enumerate((im, im.transpose(Image.FLIP_LEFT_RIGHT))):
            patches = []
            for t in keep:
                x, y, w, h = t["box"]
                x = W - x - w if k else x
                patches.append(_extract_patch(img, np.array([[x, y], [x + w, y + h]], np.float32)))
            labels = np.array([CLS_INDEX[t["code"]] for t in keep])
            side = np.array([t["box"][2] > t["box"][3] for t in keep])
            x, y = cls_batch(np.stack(patches), labels, side, np.arange(len(keep)), torch.Generator().manual_seed(0), out_h=CLS_H, out_w=CLS_W, aug=False)
            with torch.no_grad():
                lp = torch.log_softmax(self.net(x), 1)
            total.append(lp[torch.arange(len(keep)), y].sum().item())
        return total[0] - total[1]


def convert(src, out, unmirror=None, exclude=(), dense_until=None, every=1, unsquash=False):
    held = set()
    for d in exclude:
        held.update(tuple(sorted(r[0] for r in rows)) for _, rows in read_split(d) if len(rows) >= 5)
    judge = MirrorJudge(unmirror) if unmirror else None
    for sub in ("images", "labels"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    n = flipped = dropped = 0
    for i, (path, rows) in enumerate(read_split(src)):
        if not rows or (dense_until is not None and i >= dense_until and (i - dense_until) % every):
            continue
        if len(rows) >= 5 and tuple(sorted(r[0] for r in rows)) in held:
            dropped += 1
            continue
        im = Image.open(path).convert("RGB")
        W0, H0 = im.size
        s = stretch_of([(r[3] * W0, r[4] * H0) for r in rows]) if unsquash and W0 == H0 else 1.0
        W, H = round(W0 * max(1.0, s)), round(H0 * max(1.0, 1.0 / s))
        if (W, H) != (W0, H0):
            im = im.resize((W, H), Image.BICUBIC)
        tiles = [{"code": c, "box": [round(cx * W - w * W / 2, 2), round(cy * H - h * H / 2, 2), round(w * W, 2), round(h * H, 2)],
                  "sideways": bool(w * W > h * H * 1.05)} for c, cx, cy, w, h in rows]
        if judge is not None and judge.margin(im, tiles) < 0:
            im = im.transpose(Image.FLIP_LEFT_RIGHT)
            for t in tiles:
                t["box"][0] = round(W - t["box"][0] - t["box"][2], 2)
            flipped += 1
        stem = f"{i:06d}"
        im.save(os.path.join(out, "images", stem + ".jpg"), quality=95)
        with open(os.path.join(out, "labels", stem + ".json"), "w") as f:
            json.dump({"width": W, "height": H, "tiles": tiles, "source": os.path.basename(path)}, f)
        n += 1
    summary = {"scenes": n, "flipped_back": flipped, "left_out_as_held_out": dropped, "source": src}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"items": n, "real": summary}, f)
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m mahjong_train.tools.real")
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--unmirror", default=None)
    ap.add_argument("--exclude", nargs="*", default=[])
    ap.add_argument("--dense-until", type=int, default=None)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--unsquash", action="store_true")
    a = ap.parse_args(argv)
    print(json.dumps(convert(a.src, a.out, a.unmirror, a.exclude, a.dense_until, a.every, a.unsquash)))


if __name__ == "__main__":
    main()
