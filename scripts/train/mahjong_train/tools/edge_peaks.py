"""The detector's own peak on each tile the photo's edge cuts, by the edge that cuts it, on the
photo as it is and mirrored left to right (stop 58): does the detector miss cut tiles at one side
of the photo, or are the tiles the generator cuts at that side harder?

For each labelled tile whose box touches exactly one edge, the peak is the highest value of the
detector's heatmap (either channel) in the middle half of the box, with the photo letterboxed to
512 px as the pipeline does (`loops.verifier.letterboxed`: grey padding, top-left). Prints, per edge (L, R, T, B), the
count, the mean peak and how many are below 0.5 (`DET_THRESHOLD` in src/vision/pipeline.ts), for
the photo and for its mirror image (where a left-cut tile lies at the right edge).

  PYTHONPATH=scripts/train /usr/bin/python3 -m mahjong_train.tools.edge_peaks --data training-data/val-holdout-xl [--detector model/detector.onnx] [--limit N]
"""
import argparse
import collections
import glob
import json
import os

import numpy as np
import torch
from PIL import Image

from ..loops.verifier import letterboxed, load_detector

BELOW = 0.5


@torch.no_grad()
def heatmap(det, im):
    """The detector's heatmap (max over its two channels) and the photo-to-input scale."""
    x, s = letterboxed(im)
    hm, _ = det(x)
    return hm[0].max(0).values.numpy(), s


def peak(hm, s, box):
    """Highest heatmap value in the middle half of a box (photo px; the heatmap has stride 4)."""
    x, y, w, h = (v * s / 4 for v in box)
    cx, cy = x + w / 2, y + h / 2
    x0, x1 = int(max(0, cx - w / 4)), int(min(hm.shape[1], cx + w / 4 + 1))
    y0, y1 = int(max(0, cy - h / 4)), int(min(hm.shape[0], cy + h / 4 + 1))
    return float(hm[y0:y1, x0:x1].max()) if x1 > x0 and y1 > y0 else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="training-data/val-holdout-xl")
    ap.add_argument("--detector", default="model/detector.onnx")
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(2)
    det = load_detector(a.detector)
    files = sorted(glob.glob(os.path.join(a.data, "labels", "*.json")))
    if not files:
        raise SystemExit(f"edge_peaks: no labels in {a.data}/labels")
    peaks = collections.defaultdict(list)
    for f in files[:a.limit or None]:
        lab = json.load(open(f))
        W, H = lab["width"], lab["height"]
        cut = []
        for t in lab["tiles"]:
            x, y, w, h = t["box"]
            edges = [k for k, on in (("L", x < 1), ("T", y < 1), ("R", x + w > W - 1), ("B", y + h > H - 1)) if on]
            if len(edges) == 1:
                cut.append((edges[0], t["box"]))
        if not cut:
            continue
        im = Image.open(os.path.join(a.data, "images", os.path.basename(f)[:-5] + ".jpg")).convert("RGB")
        hm, s = heatmap(det, im)
        mirror, _ = heatmap(det, im.transpose(Image.FLIP_LEFT_RIGHT))
        for edge, (x, y, w, h) in cut:
            peaks[edge].append((peak(hm, s, (x, y, w, h)), peak(mirror, s, (W - x - w, y, w, h))))
    for edge in "LRTB":
        v = np.array(peaks[edge])
        if len(v):
            print(f"{edge}: {len(v)} cut tiles | photo: mean peak {v[:, 0].mean():.3f}, below {BELOW}: {(v[:, 0] < BELOW).sum()}"
                  f" | mirrored: mean peak {v[:, 1].mean():.3f}, below {BELOW}: {(v[:, 1] < BELOW).sum()}")


if __name__ == "__main__":
    main()
