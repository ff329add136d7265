"""The tile verifier: is there a tile in this box, or is it the table, a decoy or half of two tiles?

The detector's remaining false finds on held-out photos are squares of checked cloths, polka
dots, coins and discs taken for face-down tiles, and boxes that straddle two tiles. The
classifier cannot say "no tile": all 43 of its classes are tiles. This network answers only that
question, on the classifier's own crop (64x48, the box enlarged by 1.08), so that the pipeline can
drop a doubtful detection that shows no tile.

Training crops come from the generator's training scenes (never the held-out sets):
- tiles: every labelled tile (its box jittered as the classifier's crops are);
- not tiles, of three kinds:
  - the shipped detector's own false finds on those scenes at a low threshold (peaks from 0.15
    with IoU < 0.3 against every tile): the kind of mistake it makes;
  - random boxes of the scene's tile size on the table, away from the tiles;
  - boxes shifted 0.55-0.8 of a tile off a tile: half a tile and the gap or the next tile.

It is the classifier network (width m), started from classifier phase 12 with a new two-way
head (not a tile, tile), BatchNorm frozen as in the imported networks (recipes/verifier.json).
"""
import itertools
import json
import os
import random
import time

import numpy as np
import torch
from PIL import Image

from ..data.batches import cls_batch
from ..data.sets import _extract_patch, resolve_dir
from ..models.checkpoints import head_net
from ..models.graphs import detector_from_onnx
from ..models.nets import count_params
from .common import log, run_head_steps, start_head_run
from .detector import decode_np, iou

TRAIN_SETS = ["train-v14", "train-v16", "train-v19", "train-v20", "train-grids", "train-close"]
NOT_TILE, TILE = 0, 1
MINE_THR = 0.15
# plain-faced tiles: the ones most like a square of cloth or a coloured disc
PLAIN = ("5z", "back")


def load_detector(path):
    """The detector file as the pipeline runs it (a mean export: the mean of its networks)."""
    return detector_from_onnx(path)


def letterboxed(im):
    """The photo as the detector reads it: shrunk to 512 px on its long side, letterboxed top-left
    with grey to multiples of 32, as the pipeline does; (1, 3, H, W) in [0, 1], and the scale."""
    W, H = im.size
    s = 512 / max(W, H)
    nw, nh = max(1, round(W * s)), max(1, round(H * s))
    pw, ph = (nw + 31) // 32 * 32, (nh + 31) // 32 * 32
    a = np.full((ph, pw, 3), 127, np.uint8)
    a[:nh, :nw] = np.asarray(im.resize((nw, nh), Image.BOX))
    return torch.from_numpy(a).permute(2, 0, 1)[None].float() / 255.0, s


@torch.no_grad()
def detector_finds(det, im, thr=MINE_THR):
    """The detector's peaks on the photo letterboxed to 512 (top-left, as the pipeline does), in
    the photo's pixels: (x0, y0, x1, y1, score, sideways)."""
    x, s = letterboxed(im)
    hm, bx = det(x)
    out = []
    for x0, y0, x1, y1, sc, side in decode_np(hm[0].numpy(), bx[0].numpy(), thr=thr):
        out.append((x0 / s, y0 / s, x1 / s, y1 / s, sc, bool(side)))
    return out


def scene_items(im, lab, det, r):
    """(patches, labels, sideways) of one scene: its tiles and the not-tiles above."""
    tiles = [t for t in lab["tiles"] if t["box"][2] >= 6 and t["box"][3] >= 6]
    truth = [(t["box"][0], t["box"][1], t["box"][0] + t["box"][2], t["box"][1] + t["box"][3]) for t in tiles]
    W, H = im.size
    patches, labels, side, plain = [], [], [], []

    def add(b, y, sw, blank=False):
        patches.append(_extract_patch(im, np.array([[b[0], b[1]], [b[2], b[3]]], np.float32)))
        labels.append(y)
        side.append(sw)
        plain.append(blank)

    def free(b, lim):
        return all(iou(b, g) < lim for g in truth)

    for t, g in zip(tiles, truth):
        add(g, TILE, bool(t.get("sideways")), t["code"] in PLAIN)
    if det is not None:
        for f in detector_finds(det, im):
            if free(f, 0.3) and f[2] - f[0] >= 6 and f[3] - f[1] >= 6:
                add(f, NOT_TILE, f[5])
    if truth:
        ws = sorted(g[2] - g[0] for g in truth)
        hs = sorted(g[3] - g[1] for g in truth)
        mw, mh = ws[len(ws) // 2], hs[len(hs) // 2]
    else:
        mw, mh = W * 0.05, W * 0.07
    for _ in range(6):  # the table, away from the tiles
        for _try in range(30):
            k = r.uniform(0.75, 1.3)
            w, h = (mh * k, mw * k) if r.random() < 0.2 else (mw * k, mh * k)
            x0, y0 = r.uniform(-0.2 * w, W - 0.8 * w), r.uniform(-0.2 * h, H - 0.8 * h)
            b = (x0, y0, x0 + w, y0 + h)
            if free(b, 0.15):
                add(b, NOT_TILE, w > h)
                break
    for _ in range(3):  # half a tile off a tile
        if not truth:
            break
        for _try in range(10):
            g = truth[r.randrange(len(truth))]
            w, h = g[2] - g[0], g[3] - g[1]
            if r.random() < 0.6:
                dx, dy = r.choice((-1, 1)) * r.uniform(0.55, 0.8) * w, r.uniform(-0.1, 0.1) * h
            else:
                dx, dy = r.uniform(-0.1, 0.1) * w, r.choice((-1, 1)) * r.uniform(0.55, 0.8) * h
            b = (g[0] + dx, g[1] + dy, g[2] + dx, g[3] + dy)
            if free(b, 0.3):
                add(b, NOT_TILE, w > h)
                break
    return patches, labels, side, plain


def load_sets(folders, per_set, det, seed, log_fn=print):
    r = random.Random(seed)
    P, L, S, B = [], [], [], []
    for folder in folders:
        d = resolve_dir(folder)
        if d is None:
            log_fn(f"verifier: {folder} not found, skipped")
            continue
        names = sorted(n for n in os.listdir(os.path.join(d, "labels")) if n.endswith(".json"))[:per_set]
        for n in names:
            with open(os.path.join(d, "labels", n)) as f:
                lab = json.load(f)
            im = Image.open(os.path.join(d, "images", n[:-5] + ".jpg")).convert("RGB")
            p, l, s, b = scene_items(im, lab, det, r)
            P += p
            L += l
            S += s
            B += b
        log_fn(f"verifier: {folder}: {len(names)} scenes, {len(L)} crops so far ({sum(1 for y in L if y == NOT_TILE)} not tiles)")
    if not P:
        raise SystemExit("verifier: no training scenes found (a recipe generates its sets)")
    return np.stack(P), np.array(L, np.int64), np.array(S, bool), np.array(B, bool)


def make_net(init=None):
    """The classifier network (width m) with a 2-way head; its trunk from `init` (a cls checkpoint,
    or a verifier's, whose head is kept)."""
    return head_net(init, 2, "verifier")


def balanced(labels, plain, n, gen, plain_share=0.0):
    """n indices, half tiles and half not; of the tiles, plain_share plain-faced ones (PLAIN)."""
    pos = np.nonzero((labels == TILE) & ~plain)[0] if plain_share > 0 else np.nonzero(labels == TILE)[0]
    bare = np.nonzero((labels == TILE) & plain)[0]
    neg = np.nonzero(labels == NOT_TILE)[0]
    k = int(round(n // 2 * plain_share)) if len(bare) else 0
    a = torch.randint(len(pos), (n // 2 - k,), generator=gen).numpy()
    c = torch.randint(max(1, len(bare)), (k,), generator=gen).numpy()
    b = torch.randint(len(neg), (n - n // 2,), generator=gen).numpy()
    return np.concatenate([pos[a], bare[c] if k else np.zeros(0, np.int64), neg[b]])


def check(net, cache, gen):
    """Accuracy on the check crops: (tiles kept, not-tiles dropped) at p(tile) >= 0.5."""
    P, L, S, _ = cache
    net.eval()
    right_t = right_n = 0
    with torch.no_grad():
        for s in range(0, len(L), 256):
            idx = np.arange(s, min(s + 256, len(L)))
            x, y = cls_batch(P, L, S, idx, gen, aug=False)
            pr = net(x).argmax(1)
            right_t += int(((pr == y) & (y == TILE)).sum())
            right_n += int(((pr == y) & (y == NOT_TILE)).sum())
    net.train()
    nt = int((L == TILE).sum())
    return right_t / max(1, nt), right_n / max(1, len(L) - nt)


def train_verifier(a):
    """Mode verifier: a.sets (folders), a.detector (an ONNX detector whose false finds are mined, or None)."""
    run = start_head_run(a, make_net)
    net, gen, step, frozen = run[0], run[3], run[4], run[6]
    det = load_detector(a.detector) if a.detector else None
    lg = lambda m: log(a.run, m)
    t0 = time.time()
    P, L, S, B = load_sets(a.sets, a.per_set, det, a.seed, lg)
    cache = load_sets([a.check_set], a.check_n, det, 1, lg) if a.check_set else None
    log(a.run, f"verifier: params {count_params(net)}, frozen BatchNorm {frozen}, {len(L)} crops ({int((L == NOT_TILE).sum())} not tiles) in {time.time() - t0:.0f}s, start step {step}/{a.steps}")
    batches = (cls_batch(P, L, S, balanced(L, B, a.batch, gen, a.plain_share), gen, aug=True) for _ in itertools.count())

    def checked(m):
        kt, kn = check(m, cache, torch.Generator().manual_seed(0))
        return f"check set tiles kept {kt:.4f}, not-tiles dropped {kn:.4f}"
    run_head_steps(a, run, batches, "verifier", checked if cache is not None else None)
    return run[1].m
