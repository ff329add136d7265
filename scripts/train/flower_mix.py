#!/usr/bin/python3
"""How well the shipped flower networks read flowers and seasons, offline, on the true crops of
generator sets (no detector, no classifier, no pipeline rules): each reader alone, the character
spotter alone, and the flower cascade as the pipeline mixes it (FlowerMix of the first reader and
the spotter at scales 1 and 0.75; where that mix is below 0.8 sure, the mean of both readers'
softmaxes in the reader's place) for several spotter weights.

Single-tile sets (`generate.ts --tiles --codes f1,...`) give their tiles; scene sets give their
flowers' true boxes. Un-augmented crops (as train.py's validation cuts them).

  /usr/bin/python3 scripts/train/train.py import --init-onnx model/flowers.onnx --init-member 0 --run scripts/train/runs/flw1 --cls-width m
  /usr/bin/python3 scripts/train/train.py import --init-onnx model/flowers2.onnx --run scripts/train/runs/flw5 --cls-width m
  /usr/bin/python3 scripts/train/train.py import --init-onnx model/flowers.onnx --init-member -1 --run scripts/train/runs/spot1 --cls-width spot
  /usr/bin/python3 scripts/train/flower_mix.py --tiles training-data/probe-holdout --scenes training-data/val-holdout [--second flw13] [--spotter spot1 spot3] [--weights 0.3 0.4 0.5] [--zoom 0.9]
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as D  # noqa: E402
from models import FLW_H, FLW_W, make_classifier  # noqa: E402
from train import F0, RUNS, FlowerMix, numeral_factor, spotter_from_ckpt  # noqa: E402

SECOND_BELOW = 0.8  # src/vision/pipeline.ts FLOWER_SECOND_BELOW


def network(run):
    state = torch.load(os.path.join(RUNS, run, "ckpt.pt"), map_location="cpu")
    net = make_classifier(state.get("extra", {}).get("width", "m"))
    net.load_state_dict(state["ema"])
    return net.eval()


def pool_of(path, scenes):
    """The flower crops of a scene set (its flowers' true boxes) or of a single-tile set (cls_pool
    wants scenes, so an empty scene list stands beside the tiles)."""
    if scenes:
        s = D.GrowingScenes([path], "cls", codes=D.FLOWER_CODES, patch=D.FLW_PATCH)
        s.refresh()
        return D.cls_pool(s, None)
    t = D.GrowingTiles([path], codes=D.FLOWER_CODES, patch=D.FLW_PATCH)
    t.refresh()
    return D.cls_pool(D.GrowingScenes([], "cls", codes=D.FLOWER_CODES, patch=D.FLW_PATCH), t)


def middle(x, zoom):
    """The middle `zoom` of each crop's height and width, resized back to the crop's size (the crop
    enlarged, as a stand-in for the pipeline's closer cut from the photo)."""
    if zoom == 1.0:
        return x
    h, w = x.shape[2], x.shape[3]
    ch, cw = round(h * zoom), round(w * zoom)
    t, l = (h - ch) // 2, (w - cw) // 2
    return F.interpolate(x[:, :, t:t + ch, l:l + cw], size=(h, w), mode="bilinear", align_corners=False)


def crops(pool, zoom=1.0):
    """Batches of (crops, f1..f8 labels 0-7) of a cls_pool, un-augmented; with `zoom` < 1 the middle
    of each crop (middle)."""
    patches, labels, side = pool
    gen = torch.Generator().manual_seed(0)
    for s in range(0, len(labels), 256):
        idx = np.arange(s, min(s + 256, len(labels)))
        x, y = D.cls_batch(patches, labels, side, idx, gen, out_h=FLW_H, out_w=FLW_W, aug=False)
        yield middle(x, zoom), y - F0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", nargs="*", default=[], help="single-tile sets")
    ap.add_argument("--scenes", nargs="*", default=[], help="scene sets (their flowers' true boxes)")
    ap.add_argument("--first", default="flw1")
    ap.add_argument("--second", default="flw5")
    ap.add_argument("--spotter", nargs="+", default=["spot1"], help="one spotter, or several whose log-softmaxes are averaged (each at both scales)")
    ap.add_argument("--spot-scales", type=float, nargs="+", default=[1.0, 0.75], help="the scales the spotter reads each crop at (export --spot-scales); a spotter trained on crops enlarged K times (--spot-input-scale) reads each K times larger again")
    ap.add_argument("--weights", type=float, nargs="+", default=[0.3, 0.4, 0.5, 0.6])
    ap.add_argument("--numerals", default=None, help="a numeral reader's run (numerals.py): its evidence (train.numeral_factor) joins the mix at each --num-weights")
    ap.add_argument("--num-weights", type=float, nargs="+", default=[0.25, 0.5])
    ap.add_argument("--zoom", type=float, default=1.0, help="read the middle of each crop, this share of its height and width (stop 53: a single-tile set's crop is its whole picture)")
    a = ap.parse_args()
    torch.set_num_threads(2)
    first, second = network(a.first), network(a.second)
    numerals = None
    if a.numerals:
        from numerals import make_net
        numerals = make_net()[0]
        numerals.load_state_dict(torch.load(os.path.join(RUNS, a.numerals, "ckpt.pt"), map_location="cpu")["ema"])
        numerals.eval()
    # a spotter trained on enlarged crops reads them enlarged (ScaledSpotter), as export writes it
    mixes = [FlowerMix(first, spotter_from_ckpt(os.path.join(RUNS, s, "ckpt.pt"))[0], 0.0, tuple(a.spot_scales)).eval() for s in a.spotter]
    for name, scenes in [(t, False) for t in a.tiles] + [(s, True) for s in a.scenes]:
        pool = pool_of(name, scenes)
        parts = {"first": [], "second": [], "y": [], "num": []} | {f"spot{k}": [] for k in range(len(mixes))}
        with torch.no_grad():
            for x, y in crops(pool, a.zoom):
                # the first reader once; each spotter at both scales, their mean log-softmax
                parts["first"].append(F.log_softmax(first(x)[:, F0:F0 + 8], dim=1))
                for k, mix in enumerate(mixes):
                    parts[f"spot{k}"].append(mix.spot(x) / len(a.spot_scales))
                parts["second"].append(F.log_softmax(second(x)[:, F0:F0 + 8], dim=1))
                parts["y"].append(y)
                if numerals is not None:
                    parts["num"].append(numeral_factor(numerals(x)))
        r1, r2, y = (torch.cat(parts[k]) for k in ("first", "second", "y"))
        spots = [torch.cat(parts[f"spot{k}"]) for k in range(len(mixes))]
        sp = sum(spots) / len(spots)
        acc = lambda logits: (logits.argmax(1) == y).float().mean().item()  # noqa: E731
        line = [f"{name}: {len(y)} flowers" + (f" (middle {a.zoom:g})" if a.zoom != 1.0 else ""), f"{a.first} {acc(r1):.4f}", f"{a.second} {acc(r2):.4f}"]
        line += [f"{s} {acc(t):.4f}" for s, t in zip(a.spotter, spots)] + ([f"spotters averaged {acc(sp):.4f}"] if len(spots) > 1 else [])
        both = torch.log((r1.exp() + r2.exp()) / 2)
        for w in a.weights:
            m1 = (1 - w) * r1 + w * sp
            m2 = (1 - w) * both + w * sp
            unsure = F.softmax(m1, dim=1).max(1).values < SECOND_BELOW
            line.append(f"mix@{w:g} {acc(torch.where(unsure[:, None], m2, m1)):.4f}")
            if numerals is not None:
                nf = torch.cat(parts["num"])
                if w == a.weights[0]:
                    line.append(f"{a.numerals} numeral {(nf.argmax(1) % 4 == y % 4).float().mean().item():.4f}, mix numeral {(torch.where(unsure[:, None], m2, m1).argmax(1) % 4 == y % 4).float().mean().item():.4f}")
                for nw in a.num_weights:
                    n1, n2 = m1 + nw * nf, m2 + nw * nf
                    un = F.softmax(n1, dim=1).max(1).values < SECOND_BELOW
                    line.append(f"mix@{w:g}+num@{nw:g} {acc(torch.where(un[:, None], n2, n1)):.4f}")
                    line.append(f"(no second reader {acc(n1):.4f})")
        print(" | ".join(line), flush=True)


if __name__ == "__main__":
    main()
