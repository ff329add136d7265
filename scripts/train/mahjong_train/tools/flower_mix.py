"""How well the shipped flower networks read flowers and seasons, offline, on the true crops of
generator sets (no detector, no classifier, no pipeline rules): each reader alone, the character
spotter alone, and the flower cascade as the pipeline mixes it (FlowerMix of the first reader and
the spotter at scales 1 and 0.75; where that mix is below 0.8 sure, the mean of both readers'
softmaxes in the reader's place) for several spotter weights.

Single-tile sets (`generate.ts --tiles --codes f1,...`) give their tiles; scene sets give their
flowers' true boxes. Un-augmented crops (as the trainers' validation cuts them).

  npm run train -- import model/flowers.onnx scripts/train/runs/flw1 --member 0 --width m
  npm run train -- import model/flowers2.onnx scripts/train/runs/flw5 --width m
  npm run train -- import model/flowers.onnx scripts/train/runs/spot1 --member -1 --width spot
  PYTHONPATH=scripts/train /usr/bin/python3 -m mahjong_train.tools.flower_mix --tiles training-data/probe-holdout --scenes training-data/val-holdout [--second flw13] [--spotter spot1 spot3] [--weights 0.3 0.4 0.5] [--zoom 0.9]
"""
import argparse
import os

import numpy as np
import torch
import torch.nn.functional as F

from ..data.batches import cls_batch
from ..data.sets import FLOWER_CODES, FLW_PATCH, GrowingScenes, GrowingTiles, cls_pool
from ..models.checkpoints import spotter_from_ckpt
from ..models.graphs import F0, FlowerMix
from ..models.nets import FLW_H, FLW_W, make_classifier
from ..recipe import RUNS

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
        s = GrowingScenes([path], "cls", codes=FLOWER_CODES, patch=FLW_PATCH)
        s.refresh()
        return cls_pool(s, None)
    t = GrowingTiles([path], codes=FLOWER_CODES, patch=FLW_PATCH)
    t.refresh()
    return cls_pool(GrowingScenes([], "cls", codes=FLOWER_CODES, patch=FLW_PATCH), t)


def middle(x, zoom):
    """The middle `zoom` of each crop's height and width, resized back to the crop's size (the crop
    enlarged, as a stand-in for the pipeline's closer cut from the photo)."""
    if zoom == 1.0:
        return x
    h, w = x.shape[2], x.shape[3]
    ch, cw = round(h * zoom), round(w * zoom)
    t, l = (h - ch) // 2, (w - cw) // 2
    return F.interpolate(x[:, :, t:t + ch, l:l + cw], size=(h, w), mode="bilinear", align_corners=False)


def crops(pool, zoom=1.0, margin=1.08):
    """Batches of (crops, f1..f8 labels 0-7) of a cls_pool, un-augmented; with `zoom` < 1 the middle
    of each crop (middle); `margin` the box's share the crop covers (the pipeline's CROP_MARGIN)."""
    patches, labels, side = pool
    gen = torch.Generator().manual_seed(0)
    for s in range(0, len(labels), 256):
        idx = np.arange(s, min(s + 256, len(labels)))
        x, y = cls_batch(patches, labels, side, idx, gen, out_h=FLW_H, out_w=FLW_W, aug=False, margin=margin)
        yield middle(x, zoom), y - F0


def cascade(first, second, mix, x, w):
    """The flower cascade's f1..f8 probabilities of crops x at spotter weight w, as the pipeline's
    flowerProbs mixes them (the second reader joins where the first mix is below SECOND_BELOW)."""
    r1 = F.log_softmax(first(x)[:, F0:F0 + 8], dim=1)
    r2 = F.log_softmax(second(x)[:, F0:F0 + 8], dim=1)
    return F.softmax(cascade_logits(r1, r2, mix.spot(x) / len(mix.sizes), w), dim=1)


def cascade_logits(r1, r2, sp, w, extra=0.0):
    """The cascade's logits from the readers' and the spotter's log-softmaxes: (1 - w) * first + w *
    spotter (+ extra), and where that is below SECOND_BELOW sure, the two readers' mean softmax in
    the first's place."""
    m1 = (1 - w) * r1 + w * sp + extra
    m2 = (1 - w) * torch.log((r1.exp() + r2.exp()) / 2) + w * sp + extra
    unsure = F.softmax(m1, dim=1).max(1).values < SECOND_BELOW
    return torch.where(unsure[:, None], m2, m1)


def margins_report(name, pool, first, second, mix, w, margins):
    """--margins: the cascade at each crop margin, and the mean of its readings at all of them."""
    probs, y = {}, None
    with torch.no_grad():
        for m in margins:
            parts = [(cascade(first, second, mix, x, w), t) for x, t in crops(pool, margin=m)]
            probs[m], y = torch.cat([p for p, _ in parts]), torch.cat([t for _, t in parts])
    acc = lambda p: (p.argmax(1) == y).float().mean().item()  # noqa: E731
    line = [f"{name}: {len(y)} flowers, spotter weight {w:g}"] + [f"margin {m:g} {acc(p):.4f}" for m, p in probs.items()]
    print(" | ".join(line + [f"mean of the {len(margins)} {acc(sum(probs.values())):.4f}"]), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", nargs="*", default=[], help="single-tile sets")
    ap.add_argument("--scenes", nargs="*", default=[], help="scene sets (their flowers' true boxes)")
    ap.add_argument("--first", default="flw1")
    ap.add_argument("--second", default="flw5")
    ap.add_argument("--spotter", nargs="+", default=["spot1"], help="one spotter, or several whose log-softmaxes are averaged (each at both scales)")
    ap.add_argument("--spot-scales", type=float, nargs="+", default=[1.0, 0.75], help="the scales the spotter reads each crop at (export --spot-scales); a spotter trained on crops enlarged K times (--spot-input-scale) reads each K times larger again")
    ap.add_argument("--weights", type=float, nargs="+", default=[0.3, 0.4, 0.5, 0.6])
    ap.add_argument("--margins", type=float, nargs="+", default=None, help="read each crop at these margins (1.08: the pipeline's CROP_MARGIN) and report the cascade at each and their mean (at the first --weights)")
    ap.add_argument("--zoom", type=float, default=1.0, help="read the middle of each crop, this share of its height and width (stop 53: a single-tile set's crop is its whole picture)")
    a = ap.parse_args()
    torch.set_num_threads(2)
    first, second = network(a.first), network(a.second)
    # a spotter trained on enlarged crops reads them enlarged (ScaledSpotter), as export writes it
    mixes = [FlowerMix(first, spotter_from_ckpt(os.path.join(RUNS, s, "ckpt.pt"))[0], 0.0, tuple(a.spot_scales)).eval() for s in a.spotter]
    for name, scenes in [(t, False) for t in a.tiles] + [(s, True) for s in a.scenes]:
        pool = pool_of(name, scenes)
        if a.margins:
            margins_report(name, pool, first, second, mixes[0], a.weights[0], a.margins)
            continue
        parts = {"first": [], "second": [], "y": []} | {f"spot{k}": [] for k in range(len(mixes))}
        with torch.no_grad():
            for x, y in crops(pool, a.zoom):
                # the first reader once; each spotter at both scales, their mean log-softmax
                parts["first"].append(F.log_softmax(first(x)[:, F0:F0 + 8], dim=1))
                for k, mix in enumerate(mixes):
                    parts[f"spot{k}"].append(mix.spot(x) / len(a.spot_scales))
                parts["second"].append(F.log_softmax(second(x)[:, F0:F0 + 8], dim=1))
                parts["y"].append(y)
        r1, r2, y = (torch.cat(parts[k]) for k in ("first", "second", "y"))
        spots = [torch.cat(parts[f"spot{k}"]) for k in range(len(mixes))]
        sp = sum(spots) / len(spots)
        acc = lambda logits: (logits.argmax(1) == y).float().mean().item()  # noqa: E731
        line = [f"{name}: {len(y)} flowers" + (f" (middle {a.zoom:g})" if a.zoom != 1.0 else ""), f"{a.first} {acc(r1):.4f}", f"{a.second} {acc(r2):.4f}"]
        line += [f"{s} {acc(t):.4f}" for s, t in zip(a.spotter, spots)] + ([f"spotters averaged {acc(sp):.4f}"] if len(spots) > 1 else [])
        for w in a.weights:
            line.append(f"mix@{w:g} {acc(cascade_logits(r1, r2, sp, w)):.4f}")
        print(" | ".join(line), flush=True)


if __name__ == "__main__":
    main()
