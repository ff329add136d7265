#!/usr/bin/python3
"""Train / export the tile detector and the crop classifier (CPU, PyTorch).

  /usr/bin/python3 scripts/train/train.py det   --train training-data/train --val training-data/val-holdout --steps 3000
  /usr/bin/python3 scripts/train/train.py cls   --train training-data/train --tiles training-data/tiles-train --val training-data/val-holdout --steps 6000
  /usr/bin/python3 scripts/train/train.py flw   --train training-data/train --tiles training-data/tiles-flowers --init-onnx model/classifier.onnx
  /usr/bin/python3 scripts/train/train.py export --run scripts/train/runs/det --out model/
  /usr/bin/python3 scripts/train/train.py smoke --train /tmp/x   (1 step of each + export, for CI)

Checkpoints go to scripts/train/runs/<mode>/ckpt.pt every --ckpt-min minutes and at the
end; a restarted run resumes from there (model, EMA, optimiser, step, RNG).
The run is deterministic given the seed and data, up to thread scheduling.
"""
import argparse
import copy
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as D  # noqa: E402
from models import Detector, Classifier, count_params, make_classifier, CLS_H, CLS_W, FLW_H, FLW_W  # noqa: E402

RUNS = os.path.join(D.HERE, "runs")


def log(run_dir, msg):
    line = time.strftime("%H:%M:%S ") + msg
    print(line, flush=True)
    with open(os.path.join(run_dir, "log.txt"), "a") as f:
        f.write(line + "\n")


class EMA:
    def __init__(self, model, decay=0.998):
        self.m = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.m.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model, step):
        d = min(self.decay, (1 + step) / (10 + step))
        msd = model.state_dict()
        for k, v in self.m.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(d).add_(msd[k].detach(), alpha=1 - d)
            else:
                v.copy_(msd[k])


def lr_at(step, total, base, warm=150):
    if step < warm:
        return base * (step + 1) / warm
    p = (step - warm) / max(1, total - warm)
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, p))))


class Budget:
    """Optional wall-clock budget: the cosine schedule is stretched over the number of steps
    that fit before the deadline (re-estimated every 50 steps from the measured step time).
    Without a deadline, the schedule runs over exactly --steps."""

    def __init__(self, a, extra):
        self.max_steps = a.steps
        self.deadline = extra.get("deadline")
        if self.deadline is None and a.deadline_min:
            self.deadline = time.time() + a.deadline_min * 60
        # --extend-min: a later wall-clock budget for a resumed run (applied once, however often it resumes)
        self.extended = extra.get("extended_min", 0.0)
        ext = getattr(a, "extend_min", None) or 0.0
        self.total = extra.get("total", a.steps)
        if self.deadline is not None and ext > self.extended:
            self.deadline += (ext - self.extended) * 60
            self.extended = ext
            # the saved total was fitted to the old deadline (a run that reached it would stop at
            # once): run on until update() has measured the step time against the new one
            self.total = a.steps
        self.t = time.time()
        self.s = None

    def update(self, step):
        if self.deadline is None:
            self.total = self.max_steps
            return
        now = time.time()
        if self.s is not None and step > self.s:
            rate = (now - self.t) / (step - self.s)
            est = step + max(0.0, self.deadline - now) / rate
            self.total = int(min(self.max_steps, max(step + 1, est)))
        self.t, self.s = now, step

    def done(self, step):
        return step >= self.total or step >= self.max_steps

    def state(self):
        return {"deadline": self.deadline, "total": self.total, "extended_min": self.extended}


def ce_step(model, ema, opt, step, logits, y, agg):
    """One optimiser step on the cross-entropy (label smoothing 0.05) of `logits`, the EMA
    update, and the running loss / right / seen counts in `agg` (the crop trainers' step)."""
    loss = F.cross_entropy(logits, y, label_smoothing=0.05)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    ema.update(model, step)
    agg[0] += loss.item()
    agg[1] += (logits.argmax(1) == y).sum().item()
    agg[2] += len(y)


def head_net(init, n_out, tag):
    """The classifier network (width m) with a new n_out-way head (numerals.py, verifier.py). Its
    trunk comes from `init`, a cls/flw checkpoint's EMA weights; a checkpoint of the same kind
    (extra[tag]) keeps its head too. Returns (net, BatchNorm frozen: the start was an import)."""
    net = Classifier("m")
    st = torch.load(init, map_location="cpu") if init else None
    extra = st.get("extra", {}) if st else {}
    if st and not extra.get(tag):
        net.load_state_dict(st["ema"])
    net.fc = torch.nn.Linear(net.fc.in_features, n_out)
    if st and extra.get(tag):
        net.load_state_dict(st["ema"])
    return net, bool(extra.get("frozen_bn"))


def add_head_run_args(ap, run, batch, lr, ckpt_min):
    """The options every head run takes (numerals.py, verifier.py), with its defaults."""
    ap.add_argument("--run", default=run)
    ap.add_argument("--init", default=None, help="train: start the trunk from this checkpoint's EMA weights")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=batch)
    ap.add_argument("--lr", type=float, default=lr)
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--deadline-min", type=float, default=None)
    ap.add_argument("--extend-min", type=float, default=None)
    ap.add_argument("--ckpt-min", type=float, default=ckpt_min)
    ap.add_argument("--threads", type=int, default=None)


def start_head_run(a, make_net):
    """The common start of a run whose network is `make_net(init)` (numerals.py, verifier.py): seed
    and threads, the network from a.init or its own checkpoint (resumed: weights, EMA, optimiser,
    step, RNG and budget), BatchNorm frozen when the start was an imported network.
    Returns (net, ema, opt, gen, step, bud, frozen, ckpt path)."""
    torch.manual_seed(a.seed)
    if a.threads:
        torch.set_num_threads(a.threads)
    os.makedirs(a.run, exist_ok=True)
    ck = os.path.join(a.run, "ckpt.pt")
    net, frozen = make_net(None if os.path.exists(ck) else a.init)
    if os.path.exists(ck):
        frozen = bool(torch.load(ck, map_location="cpu").get("extra", {}).get("frozen_bn"))
    ema = EMA(net)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(a.seed)
    step, extra = load_ckpt(ck, net, ema, opt, gen)
    bud = Budget(a, extra)
    net.train()
    if frozen:
        from onnx_weights import freeze_bn
        freeze_bn(net)
    return net, ema, opt, gen, step, bud, frozen, ck


def run_head_steps(a, run, batches, tag, check=None):
    """The training loop of a head run (start_head_run's tuple `run`): AdamW steps on the
    cross-entropy of the batches (`batches` yields (input, labels)) until the budget is spent, a
    log line every 50 steps, a checkpoint (extra[tag] set) every --ckpt-min minutes and at the end,
    and then check(EMA network) in the log when given."""
    net, ema, opt, gen, step, bud, frozen, ck = run
    extra = lambda: {**bud.state(), "frozen_bn": frozen, tag: True}
    t0, last_ck, agg = time.time(), time.time(), [0.0, 0, 0]
    while not bud.done(step):
        if step % 50 == 0:
            bud.update(step)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, bud.total, a.lr, warm=100)
        x, y = next(batches)
        ce_step(net, ema, opt, step, net(x), y, agg)
        step += 1
        if step % 50 == 0:
            log(a.run, f"step {step} loss {agg[0] / max(1, agg[2] / a.batch):.4f} acc {agg[1] / max(1, agg[2]):.4f} lr {opt.param_groups[0]['lr']:.5f} {(time.time() - t0) / max(1, agg[2] / a.batch):.2f}s/step (of {bud.total})")
            t0, agg = time.time(), [0.0, 0, 0]
        if time.time() - last_ck > a.ckpt_min * 60 or bud.done(step):
            save_ckpt(ck, net, ema, opt, step, gen, extra())
            last_ck = time.time()
            if check is not None:
                log(a.run, f"ckpt step {step}: {check(ema.m)}")
    save_ckpt(ck, net, ema, opt, step, gen, extra())
    log(a.run, f"finished at step {step}")


def save_ckpt(path, model, ema, opt, step, gen, extra=None):
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "ema": ema.m.state_dict(), "opt": opt.state_dict(),
                "step": step, "gen": gen.get_state(), "extra": extra or {}}, tmp)
    os.replace(tmp, path)


def load_ckpt(path, model, ema, opt, gen):
    if not os.path.exists(path):
        return 0, {}
    ck = torch.load(path, map_location="cpu")
    model.load_state_dict(ck["model"])
    ema.m.load_state_dict(ck["ema"])
    opt.load_state_dict(ck["opt"])
    gen.set_state(ck["gen"])
    return ck["step"], ck.get("extra", {})


# ----------------------------------------------------------------------------
# detector


def focal_loss(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred ** 2 * (1 - gt) ** 4 * neg
    npos = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / npos


def det_loss(model, x, hm, box, mask):
    phm, pbox = model(x)
    # sideways vs upright is a soft distinction: also supervise the max over channels
    lh = focal_loss(phm, hm) + 0.5 * focal_loss(phm.max(1).values, hm.max(1).values)
    m = mask.unsqueeze(1)
    lb = (F.smooth_l1_loss(pbox * m, box * m, reduction="sum", beta=0.1) / m.sum().clamp(min=1))
    return lh + lb, lh.item(), lb.item()


def decode_np(hm, box, thr=0.3, stride=4):
    """hm (2,h,w), box (4,h,w) -> list of (x0,y0,x1,y1,score,sideways)."""
    t = torch.from_numpy(hm)[None]
    mx = F.max_pool2d(t, 3, 1, 1)[0].numpy()
    peak = (hm == mx) & (hm >= thr)
    out = []
    for c, yy, xx in zip(*np.nonzero(peak)):
        dx, dy, lw, lh = box[:, yy, xx]
        cx, cy = (xx + dx) * stride, (yy + dy) * stride
        w, h = math.exp(lw) * stride, math.exp(lh) * stride
        out.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, float(hm[c, yy, xx]), c == 1))
    out.sort(key=lambda b: -b[4])
    keep = []
    for b in out:
        if all(iou(b, k) < 0.5 for k in keep):
            keep.append(b)
    return keep


def iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / u if u > 0 else 0.0


@torch.no_grad()
def det_eval(model, images, quads, sideways, n=100, size=512):
    model.eval()
    tp = fp = fn = side_ok = 0
    gen = torch.Generator().manual_seed(0)
    for s in range(0, min(n, len(images)), 8):
        idx = list(range(s, min(s + 8, n, len(images))))
        x, _, _, _ = D.det_batch(images, quads, sideways, idx, gen, out_size=size, aug=False)
        phm, pbox = model(x)
        for j, i in enumerate(idx):
            dets = decode_np(phm[j].numpy(), pbox[j].numpy())
            gts = [(q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()) for q in quads[i]]
            used = set()
            for d in dets:
                best, bi = 0.0, -1
                for gi, g in enumerate(gts):
                    if gi in used:
                        continue
                    v = iou(d, g)
                    if v > best:
                        best, bi = v, gi
                if best >= 0.5:
                    tp += 1
                    used.add(bi)
                    side_ok += int(d[5] == bool(sideways[i][bi]))
                else:
                    fp += 1
            fn += len(gts) - len(used)
    model.train()
    return tp / max(1, tp + fn), tp / max(1, tp + fp), side_ok / max(1, tp)


def wait_for_items(ds, n, what, run):
    ds.refresh()
    while len(ds) < n and not ds.complete:
        log(run, f"waiting for data: {len(ds)} {what} so far")
        time.sleep(30)
        ds.refresh()
    if len(ds) == 0:
        raise SystemExit(f"no {what} found in {ds.folders}")


def train_det(a):
    torch.manual_seed(a.seed)
    run = a.run or os.path.join(RUNS, "det")
    os.makedirs(run, exist_ok=True)
    ds = D.GrowingScenes(a.train, "det", limit=a.limit)
    wait_for_items(ds, a.min_items, "scenes", run)
    val = None
    if a.val:
        val = D.GrowingScenes([a.val], "det", limit=a.limit or a.val_n)
        wait_for_items(val, min(a.val_n, 50), "validation scenes", run)
    model = Detector()
    ema = EMA(model)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(a.seed)
    ck = os.path.join(run, "ckpt.pt")
    if a.init_onnx and not os.path.exists(ck):
        from onnx_weights import load_onnx_into
        load_onnx_into(model, a.init_onnx, torch.zeros(1, 3, 256, 256))
        ema.m.load_state_dict(model.state_dict())
        log(run, f"initialised from {a.init_onnx} (BatchNorm folded into the convolutions; BatchNorm frozen)")
    step, extra = load_ckpt(ck, model, ema, opt, gen)
    bud = Budget(a, extra)
    log(run, f"det: {len(ds)} scenes (complete={ds.complete}), params {count_params(model)}, start step {step}/{a.steps}, threads {torch.get_num_threads()}")
    model.train()
    if a.init_onnx:
        from onnx_weights import freeze_bn
        freeze_bn(model)  # the folded weights need BatchNorm as a fixed affine layer
    last_ck = time.time()
    t0 = time.time()
    agg = [0.0, 0.0, 0]
    while not bud.done(step):
        if step % 50 == 0:
            bud.update(step)
        if step % 100 == 0 and not ds.complete:
            n = ds.refresh(max_new=400)
            if n:
                log(run, f"data: +{n} scenes -> {len(ds)} (complete={ds.complete})")
        for g in opt.param_groups:
            g["lr"] = lr_at(step, bud.total, a.lr)
        idx = torch.randint(0, len(ds), (a.batch,), generator=gen).numpy()
        images, quads, side = ds.det_arrays(idx)
        x, hm, box, mask = D.det_batch(images, quads, side, np.arange(len(idx)), gen, out_size=a.crop)
        loss, lh, lb = det_loss(model, x, hm, box, mask)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        ema.update(model, step)
        step += 1
        agg[0] += lh
        agg[1] += lb
        agg[2] += 1
        if step % 50 == 0 or bud.done(step):
            log(run, f"step {step} hm {agg[0]/agg[2]:.3f} box {agg[1]/agg[2]:.3f} lr {opt.param_groups[0]['lr']:.5f} {(time.time()-t0)/agg[2]:.2f}s/step (of {bud.total})")
            agg = [0.0, 0.0, 0]
            t0 = time.time()
        if time.time() - last_ck > a.ckpt_min * 60 or bud.done(step):
            save_ckpt(ck, model, ema, opt, step, gen, bud.state())
            last_ck = time.time()
            if val is not None:
                vi, vq, vs = val.det_arrays(range(min(a.val_n, len(val))))
                r, p, sacc = det_eval(ema.m, vi, vq, vs, n=a.val_n)
                log(run, f"ckpt step {step}: val(EMA) recall {r:.4f} precision {p:.4f} sideways-acc {sacc:.4f}")
    log(run, f"finished at step {step}")
    export_det(ema.m, os.path.join(run, "detector.onnx"))
    log(run, "exported " + os.path.join(run, "detector.onnx"))


# ----------------------------------------------------------------------------
# classifier


# The flower reader's outputs are the classifier's flower logits f1..f8 (D.FLOWER_CODES).
F0 = D.CLS_INDEX["f1"]


@torch.no_grad()
def cls_eval(model, patches, labels, side, flw=False, large=False, up=None):
    """Crop accuracy; `up` (spotter runs with --spot-input-scale) enlarges the crops first."""
    model.eval()
    gen = torch.Generator().manual_seed(0)
    correct = 0
    hw = (FLW_H, FLW_W) if flw or large else (CLS_H, CLS_W)
    for s in range(0, len(labels), 256):
        idx = np.arange(s, min(s + 256, len(labels)))
        x, y = D.cls_batch(patches, labels, side, idx, gen, out_h=hw[0], out_w=hw[1], aug=False)
        lo = model(up(x) if up else x)
        pred = lo[:, F0:F0 + 8].argmax(1) + F0 if flw else lo.argmax(1)
        correct += (pred == y).sum().item()
    model.train()
    return correct / max(1, len(labels))


def train_cls(a):
    """Crop classifier (mode cls), or the flower reader (mode flw): the same network trained on
    96x72 crops of flower and season tiles only, its loss over the eight flower logits, with more
    greyscale and swapped colour channels (sets draw and colour their flowers differently; the
    character and numeral are what they share). With --large, the classifier takes the reader's
    96x72 crops (from 160 px patches) for all 43 classes; a resumed run keeps its own size."""
    flw = a.mode == "flw"
    torch.manual_seed(a.seed)
    run = a.run or os.path.join(RUNS, "flw" if flw else "cls")
    os.makedirs(run, exist_ok=True)
    ck = os.path.join(run, "ckpt.pt")
    large = bool(a.large)
    if os.path.exists(ck):
        large = bool(torch.load(ck, map_location="cpu").get("extra", {}).get("large", False))
    codes = D.FLOWER_CODES if flw else None
    patch = D.FLW_PATCH if flw or large else D.PATCH
    out_h, out_w = (FLW_H, FLW_W) if flw or large else (CLS_H, CLS_W)
    grey = a.grey if a.grey is not None else (0.35 if flw else 0.08)
    shuffle = a.shuffle if a.shuffle is not None else (0.25 if flw else 0.0)
    scenes = D.GrowingScenes(a.train, "cls", limit=a.limit, codes=codes, patch=patch)
    tiles = D.GrowingTiles(a.tiles or [], limit=None if a.limit is None else a.limit * 10, codes=codes, patch=patch)
    wait_for_items(scenes, a.min_items, "scenes", run)
    tiles.refresh()
    pool = D.cls_pool(scenes, tiles)
    vp = None
    if a.val:
        val = D.GrowingScenes([a.val], "cls", limit=a.limit, codes=codes, patch=patch)
        wait_for_items(val, min(50, a.limit or 50), "validation scenes", run)
        vp, vl, vs = D.cls_pool(val, None)
    width = a.cls_width
    if os.path.exists(os.path.join(run, "ckpt.pt")):
        width = torch.load(os.path.join(run, "ckpt.pt"), map_location="cpu").get("extra", {}).get("width", "s")
    model = make_classifier(width)
    ema = EMA(model)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(a.seed)
    init_frozen, init_scale = False, 1.0
    if a.init and not os.path.exists(ck):
        init = torch.load(a.init, map_location="cpu")
        init_frozen = bool(init.get("extra", {}).get("frozen_bn"))
        init_scale = float(init.get("extra", {}).get("input_scale", 1.0))
        model.load_state_dict(init["ema"])
        ema.m.load_state_dict(init["ema"])
        log(run, f"initialised from the EMA weights of {a.init} (step {init['step']})")
    elif a.init_onnx and not os.path.exists(ck):
        from onnx_weights import load_onnx_into
        if width == "spot":  # the spotter's trunk is the first six blocks of the `m` classifier
            src = Classifier("m")
            load_onnx_into(src, a.init_onnx, torch.zeros(1, 3, FLW_H, FLW_W))
            model.net[:6].load_state_dict(src.net[:6].state_dict())
        else:
            load_onnx_into(model, a.init_onnx, torch.zeros(1, 3, CLS_H, CLS_W), member=a.init_member)
        ema.m.load_state_dict(model.state_dict())
        log(run, f"initialised from {a.init_onnx} (BatchNorm folded into the convolutions; BatchNorm frozen)")
    step, extra = load_ckpt(ck, model, ema, opt, gen)
    bud = Budget(a, extra)
    # a run that started from an ONNX file keeps its BatchNorm frozen when resumed
    # (as does one started from the checkpoint of such a run)
    frozen = bool(a.init_onnx) or init_frozen or bool((extra or {}).get("frozen_bn"))
    # a spotter trained on enlarged crops (--spot-input-scale) keeps its scale when resumed, and
    # passes it on to a run started from its checkpoint unless that run gives its own
    iscale = float((extra or {}).get("input_scale", a.spot_input_scale if a.spot_input_scale is not None else init_scale))
    if iscale != 1.0 and not (flw and width == "spot"):
        raise SystemExit("train: --spot-input-scale is for the character spotter only (flw --cls-width spot)")
    isize = (round(FLW_H * iscale), round(FLW_W * iscale))
    up = None if iscale == 1.0 else (lambda t: enlarge(t, iscale))
    if up:
        log(run, f"spotter input: the {FLW_H}x{FLW_W} crops enlarged to {isize[0]}x{isize[1]} (export reads it the same way: ScaledSpotter)")
    log(run, f"{a.mode}: width {width}, {'large crops, ' if large else ''}grey {grey}, shuffle {shuffle}, {out_h}x{out_w}, {len(pool[1])} crops ({len(scenes)} scenes, {len(tiles.labels)} single tiles), params {count_params(model)}, start step {step}/{a.steps}")
    model.train()
    if frozen:
        from onnx_weights import freeze_bn
        freeze_bn(model)  # the folded weights need BatchNorm as a fixed affine layer
    last_ck = time.time()
    t0 = time.time()
    agg = [0.0, 0, 0]
    while not bud.done(step):
        if step % 50 == 0:
            bud.update(step)
        if step % 200 == 0 and not (scenes.complete and tiles.complete):
            n = scenes.refresh(max_new=600) + tiles.refresh(max_new=6000)
            if n:
                pool = D.cls_pool(scenes, tiles)
                counts = np.bincount(pool[1], minlength=len(D.CLASSES))
                log(run, f"data: +{n} -> {len(pool[1])} crops ({len(scenes)} scenes, {len(tiles.labels)} single tiles), min class count {counts.min()}")
        patches, labels, side = pool
        for g in opt.param_groups:
            g["lr"] = lr_at(step, bud.total, a.lr)
        idx = torch.randint(0, len(labels), (a.batch,), generator=gen).numpy()
        x, y = D.cls_batch(patches, labels, side, idx, gen, out_h=out_h, out_w=out_w, grey=grey, shuffle=shuffle, shape=a.shape, ink=a.ink, lowres=a.lowres, sharpen=a.sharpen, cut=a.cut, blur=a.blur)
        logits = model(up(x) if up else x)
        if flw:
            logits, y = logits[:, F0:F0 + 8], y - F0
        ce_step(model, ema, opt, step, logits, y, agg)
        step += 1
        if step % 50 == 0 or bud.done(step):
            log(run, f"step {step} loss {agg[0]/max(1,agg[2]/a.batch):.4f} acc {agg[1]/max(1,agg[2]):.4f} lr {opt.param_groups[0]['lr']:.5f} {(time.time()-t0)/max(1,agg[2]/a.batch):.2f}s/step (of {bud.total})")
            agg = [0.0, 0, 0]
            t0 = time.time()
        if time.time() - last_ck > a.ckpt_min * 60 or bud.done(step):
            save_ckpt(ck, model, ema, opt, step, gen, {**bud.state(), "width": width, "frozen_bn": frozen, "large": large, "input_scale": iscale})
            last_ck = time.time()
            if vp is not None:
                acc = cls_eval(ema.m, vp, vl, vs, flw, large, up)
                log(run, f"ckpt step {step}: val(EMA) crop accuracy {acc:.4f} on {len(vl)}")
    log(run, f"finished at step {step}")
    name = "flowers.onnx" if flw else "classifier.onnx"
    if flw:
        export_flw(ema.m, os.path.join(run, name))
    else:
        export_cls(ema.m, os.path.join(run, name), large)
    log(run, "exported " + os.path.join(run, name))


# ----------------------------------------------------------------------------
# export


def export_det(model, path, opset=17):
    model = copy.deepcopy(model).eval()
    x = torch.zeros(1, 3, 512, 512)
    torch.onnx.export(model, x, path, opset_version=opset, input_names=["image"],
                      output_names=["heatmap", "box"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "heatmap": {0: "n", 2: "gh", 3: "gw"},
                                    "box": {0: "n", 2: "gh", 3: "gw"}})


def export_cls(model, path, large=False, opset=17):
    """The classifier; its input is (n, 3, 64, 48), or (n, 3, 96, 72) when trained on large crops
    (the pipeline reads the size from the file)."""
    model = copy.deepcopy(model).eval()
    x = torch.zeros(1, 3, FLW_H, FLW_W) if large else torch.zeros(1, 3, CLS_H, CLS_W)
    torch.onnx.export(model, x, path, opset_version=opset, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})


def net_from_ckpt(path, det=False):
    """The EMA weights of a checkpoint in their network (the Detector, or make_classifier by the
    run's width preset), and the checkpoint itself."""
    state = torch.load(path, map_location="cpu")
    net = Detector() if det else make_classifier(state.get("extra", {}).get("width", "s"))
    net.load_state_dict(state["ema"])
    return net, state


class ClassifierEnsemble(torch.nn.Module):
    """Several classifiers in one graph: logits = log of the mean of their softmaxes, so the
    pipeline's softmax gives the averaged probabilities and it needs no change."""

    def __init__(self, nets):
        super().__init__()
        self.nets = torch.nn.ModuleList(nets)

    def forward(self, x):
        p = torch.stack([F.softmax(n(x), dim=1) for n in self.nets]).mean(0)
        return torch.log(p.clamp_min(1e-12))


class ReaderEnsemble(torch.nn.Module):
    """Several flower readers in one graph: the f1..f8 slice of the output is the log of the mean
    of their eight-way softmaxes (the other logits are 0: FlowerLogits and FlowerMix read only
    the slice, and a reader's non-flower logits were never trained)."""

    def __init__(self, nets):
        super().__init__()
        self.nets = torch.nn.ModuleList(nets)

    def forward(self, x):
        p = torch.stack([F.softmax(n(x)[:, F0:F0 + 8], dim=1) for n in self.nets]).mean(0)
        return F.pad(torch.log(p.clamp_min(1e-12)), (F0, len(D.CLASSES) - F0 - 8))


def enlarge(x, k):
    """Crops `x` enlarged k times (bilinear): how a spotter trained with --spot-input-scale k
    reads its crops, in training and, through ScaledSpotter, in the exported graph. A scale factor
    rather than a size, as traced for ONNX the crop's shape is not a number."""
    return F.interpolate(x, scale_factor=k, mode="bilinear", align_corners=False)


class ScaledSpotter(torch.nn.Module):
    """A spotter trained on enlarged crops (`--spot-input-scale K`, kept in its checkpoint): it
    reads whatever crop it is given enlarged K times (bilinear), so that in FlowerMix at scales
    1 and 0.75 it reads 96x72 crops at 144x108 and 72x54 ones at 108x81 for K = 1.5."""

    def __init__(self, net, k):
        super().__init__()
        self.net, self.k = net, float(k)

    def forward(self, x):
        return self.net(enlarge(x, self.k))


def spotter_from_ckpt(path):
    """A spotter run's EMA network, wrapped in ScaledSpotter when it was trained on enlarged crops."""
    net, state = net_from_ckpt(path)
    k = float(state.get("extra", {}).get("input_scale", 1.0))
    return (ScaledSpotter(net, k) if k != 1.0 else net), state


class SpotterEnsemble(torch.nn.Module):
    """Several character spotters in one graph (`export --spot-also`): the f1..f8 slice of the
    output is the mean of their eight-way log-softmaxes (a geometric mean, as flower_mix.py
    averages them; the other logits are 0, as ReaderEnsemble's)."""

    def __init__(self, nets):
        super().__init__()
        self.nets = torch.nn.ModuleList(nets)

    def forward(self, x):
        q = torch.stack([F.log_softmax(n(x)[:, F0:F0 + 8], dim=1) for n in self.nets]).mean(0)
        return F.pad(q, (F0, len(D.CLASSES) - F0 - 8))


class FlowerLogits(torch.nn.Module):
    """The classifier's f1..f8 logits: the flower reader's ONNX output."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x)[:, F0:F0 + 8]


class FlowerMix(torch.nn.Module):
    """The flower reader and the character spotter in one graph: logits = (1 - w) * log-softmax of
    the reader's f1..f8 + w * log-softmax of the spotter's, so softmax(logits) is the normalised
    product reader^(1 - w) * spotter^w (the pipeline mixes that with the classifier's split).

    `spot_scales`: the spotter reads the crop at each of these scales (bilinear resize in the
    graph) and its log-softmaxes are averaged. Each of its cells sees a 31 px window, about a
    third of the tile's width at scale 1; at 0.75 the window covers more of a large character
    (season tiles print 春夏秋冬 across half the face), which it then reads as a whole."""

    def __init__(self, reader, spotter, w, spot_scales=(1.0,), numerals=None, num_weight=0.0):
        super().__init__()
        self.reader, self.spotter, self.w = reader, spotter, float(w)
        self.sizes = [(round(FLW_H * k), round(FLW_W * k)) for k in spot_scales]
        self.numerals, self.num_weight = numerals, float(num_weight)

    def spot(self, x):
        """The sum of the spotter's f1..f8 log-softmaxes over its scales."""
        bs = [F.log_softmax(self.spotter(x if (h, w) == (FLW_H, FLW_W) else F.interpolate(x, size=(h, w), mode="bilinear", align_corners=False))[:, F0:F0 + 8], dim=1)
              for h, w in self.sizes]
        b = bs[0]
        for more in bs[1:]:
            b = b + more
        return b

    def parts(self, x):
        """The reader's f1..f8 log-softmax and the sum of the spotter's over its scales (spot)."""
        return F.log_softmax(self.reader(x)[:, F0:F0 + 8], dim=1), self.spot(x)

    def forward(self, x):
        a, b = self.parts(x)
        out = a * (1.0 - self.w) + b * (self.w / len(self.sizes))
        if self.numerals is not None:
            out = out + self.num_weight * numeral_factor(self.numerals(x))
        return out


def numeral_factor(logits):
    """The numeral reader's (numerals.py) evidence for f1..f8: log(p(numeral of fk) + p(none) / 4),
    so a face with no numeral it can read leaves the flowers as they were. Flowers f1..f4 and
    seasons f5..f8 print the numerals 1..4."""
    p = F.softmax(logits, dim=1)
    q = p[:, :4] + p[:, 4:5] / 4.0
    return torch.log(torch.cat([q, q], dim=1).clamp_min(1e-6))


class FlowerParts(torch.nn.Module):
    """The first file of the flower cascade (`export --flw-cascade`, flowers.onnx): per crop 17
    values, the first reader's f1..f8 log-softmax, the spotter's (averaged over `spot_scales`, as
    FlowerMix does) and the spotter's weight w. The pipeline mixes them as FlowerMix does,
    (1 - w) * reader + w * spotter, and only for the crops that mix is unsure of runs the second
    reader (flowers2.onnx, FlowerLogSoftmax) and mixes again with the two readers' mean softmax."""

    def __init__(self, reader, spotter, w, spot_scales=(1.0,)):
        super().__init__()
        self.mix = FlowerMix(reader, spotter, w, spot_scales)

    def forward(self, x):
        a, b = self.mix.parts(x)
        return torch.cat([a, b / len(self.mix.sizes), torch.full_like(a[:, :1], self.mix.w)], dim=1)


class FlowerLogSoftmax(torch.nn.Module):
    """The second file of the flower cascade (flowers2.onnx): a reader's f1..f8 log-softmax."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return F.log_softmax(self.net(x)[:, F0:F0 + 8], dim=1)


def export_flw_cascade(first, second, spotter, out, spot_weight, spot_scales, opset=17):
    """flowers.onnx (FlowerParts of the first reader and the spotter) and flowers2.onnx (the second
    reader), checked to give, mixed as the pipeline mixes them, what one graph of both readers
    (FlowerMix of their ReaderEnsemble) gives."""
    parts = FlowerParts(copy.deepcopy(first), copy.deepcopy(spotter), spot_weight, spot_scales).eval()
    rest = FlowerLogSoftmax(copy.deepcopy(second)).eval()
    x = torch.zeros(1, 3, FLW_H, FLW_W)
    for m, name, width in ((parts, "flowers.onnx", 17), (rest, "flowers2.onnx", 8)):
        torch.onnx.export(m, x, os.path.join(out, name), opset_version=opset, input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    whole = FlowerMix(ReaderEnsemble([copy.deepcopy(first), copy.deepcopy(second)]), copy.deepcopy(spotter), spot_weight, spot_scales).eval()
    xs = torch.rand(4, 3, FLW_H, FLW_W)
    with torch.no_grad():
        p, q = parts(xs), rest(xs)
        w = p[:, 16:17]
        mixed = (1 - w) * torch.log((p[:, :8].exp() + q.exp()) / 2) + w * p[:, 8:16]
        want = F.log_softmax(whole(xs), dim=1)
        diff = (F.log_softmax(mixed, dim=1) - want).abs().max().item()
    assert diff < 1e-4, f"the flower cascade differs from the readers in one graph by {diff}"


def export_flw(model, path, opset=17, spotter=None, spot_weight=0.5, spot_scales=(1.0,), numerals=None, num_weight=0.0):
    """The flower reader's ONNX file: its f1..f8 logits, or with `spotter` the FlowerMix of both
    (and, with `numerals`, the numeral reader's evidence at `num_weight`)."""
    model = (FlowerMix(copy.deepcopy(model), copy.deepcopy(spotter), spot_weight, spot_scales, copy.deepcopy(numerals), num_weight) if spotter is not None
             else FlowerLogits(copy.deepcopy(model))).eval()
    x = torch.zeros(1, 3, FLW_H, FLW_W)
    torch.onnx.export(model, x, path, opset_version=opset, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})


def _check_onnx_round_trip(net, ckpt, onnx, x):
    """The network read back from `onnx` gives the outputs of the EMA weights in `ckpt` on `x`."""
    from onnx_weights import load_onnx_into
    ref, back = net(), net()
    ref.load_state_dict(torch.load(ckpt, map_location="cpu")["ema"])
    load_onnx_into(back, onnx, x[:1])
    ref.eval()
    back.eval()
    with torch.no_grad():
        a, b = ref(x), back(x)
    pairs = zip(a, b) if isinstance(a, tuple) else [(a, b)]
    diff = max((u - v).abs().max().item() for u, v in pairs)
    assert diff < 1e-4, f"{net.__name__} read back from ONNX differs by {diff}"


def _check_flower_export(ckpt, onnx):
    """The flower reader's ONNX file, read back, gives the f1..f8 logits of its checkpoint on 96x72 crops."""
    from onnx_weights import load_onnx_into
    state = torch.load(ckpt, map_location="cpu")
    width = state.get("extra", {}).get("width", "s")
    ref, back = make_classifier(width), make_classifier(width)
    ref.load_state_dict(state["ema"])
    x = torch.rand(3, 3, FLW_H, FLW_W)
    load_onnx_into(back, onnx, x[:1])
    a, b = FlowerLogits(ref).eval(), FlowerLogits(back).eval()
    with torch.no_grad():
        ya, yb = a(x), b(x)
    assert ya.shape == (3, 8), ya.shape
    diff = (ya - yb).abs().max().item()
    assert diff < 1e-4, f"the flower reader read back from ONNX differs by {diff}"


def smoke(a):
    """One training step of each model on a few scenes, then ONNX export. For CI."""
    import tempfile
    t = time.time()
    out = a.run or tempfile.mkdtemp(prefix="train-smoke-")
    for mode in ("det", "cls", "flw"):
        b = argparse.Namespace(**vars(a))
        b.mode = mode
        b.run = os.path.join(out, mode)
        b.steps = 1
        b.init = None
        b.deadline_min = None
        b.batch = 2
        b.limit = 3
        b.val = a.train[0]
        b.val_n = 2
        b.crop = 128
        # the flower reader needs flower tiles: the single-tile set passed with --tiles
        b.tiles = a.tiles if mode == "flw" else None
        b.min_items = 1
        # the shape changes (data.shape_aug) run in the classifier's and the reader's steps
        b.shape = 0.0 if mode == "det" else 1.0
        # and the one-ink reprint (data.ink_aug)
        b.ink = 0.0 if mode == "det" else 1.0
        # and the small-tile resampling (data.lowres_aug)
        b.lowres = 0.0 if mode == "det" else 1.0
        b.sharpen = 0.0 if mode == "det" else 1.0
        # and the heavy blur (data.blur_aug)
        b.blur = 0.0 if mode == "det" else 1.0
        # and the tile cut by the photo's edge (data.cut_aug)
        b.cut = 0.0 if mode == "det" else 1.0
        if mode == "flw":
            # it starts from the classifier, as the shipped one does
            b.init_onnx = os.path.join(out, "cls", "classifier.onnx")
            b.limit = None
        (train_det if mode == "det" else train_cls)(b)
        onnx = os.path.join(b.run, {"det": "detector.onnx", "cls": "classifier.onnx", "flw": "flowers.onnx"}[mode])
        assert os.path.getsize(onnx) > 1000, onnx
        if mode == "flw":
            _check_flower_export(os.path.join(b.run, "ckpt.pt"), onnx)
            _smoke_spotter(b, out)
            continue
        # the export read back (onnx_weights.py) computes what its checkpoint does, and a
        # fine-tune can start from it (the classifier's Linear layer is a Gemm node)
        net, x = (Detector, torch.rand(1, 3, 128, 96)) if mode == "det" else (Classifier, torch.rand(3, 3, CLS_H, CLS_W))
        _check_onnx_round_trip(net, os.path.join(b.run, "ckpt.pt"), onnx, x)
        b.run = os.path.join(out, f"{mode}-init")
        b.init_onnx = onnx
        # the classifier's fine-tune runs on large crops, as phase 9 does from the 48x64 phase 7
        b.large = mode == "cls"
        (train_det if mode == "det" else train_cls)(b)
        if mode == "cls":
            _check_onnx_round_trip(Classifier, os.path.join(b.run, "ckpt.pt"), os.path.join(b.run, "classifier.onnx"),
                                   torch.rand(3, 3, FLW_H, FLW_W))
            assert torch.load(os.path.join(b.run, "ckpt.pt"), map_location="cpu")["extra"]["large"]
    _smoke_ensemble(out)
    _smoke_import(out)
    _smoke_blend(out)
    _smoke_ink()
    _smoke_lowres()
    _smoke_cut()
    _smoke_budget()
    _smoke_sharpen()
    _smoke_blur()
    _smoke_verifier(a, out)
    print(f"smoke ok in {time.time()-t:.1f}s: {out}")


def _smoke_ensemble(out):
    """export --cls-also: classifier.onnx holds both classifiers (the smoke `s` one and the
    spotter's `m` one), and the ensemble's softmax is the mean of theirs."""
    a = argparse.Namespace(run=out, out=os.path.join(out, "ens"), det_run="none", cls_run="cls", cls_also=["cls-m"],
                           flw_run="none", flw_also=None, spot_run=None, spot_weight=0.5)
    export_from_ckpt(a)
    nets = [net_from_ckpt(os.path.join(out, run, "ckpt.pt"))[0].eval() for run in ("cls", "cls-m")]
    x = torch.rand(3, 3, CLS_H, CLS_W)
    with torch.no_grad():
        got = F.softmax(ClassifierEnsemble(nets).eval()(x), dim=1)
        want = (F.softmax(nets[0](x), dim=1) + F.softmax(nets[1](x), dim=1)) / 2
    assert (got - want).abs().max().item() < 1e-5
    single = os.path.getsize(os.path.join(out, "cls", "classifier.onnx")) + os.path.getsize(os.path.join(out, "cls-m", "classifier.onnx"))
    assert os.path.getsize(os.path.join(a.out, "classifier.onnx")) > 0.9 * single, "the ensemble holds both networks"
    # export --flw-also: flowers.onnx averages two readers' eight-way softmaxes (the smoke
    # classifier stands in for a second reader), then mixes in the spotter
    a = argparse.Namespace(run=out, out=os.path.join(out, "ens-flw"), det_run="none", cls_run="none", cls_also=None,
                           flw_run="flw", flw_also=["cls"], spot_run="spot", spot_weight=0.3)
    export_from_ckpt(a)
    readers = [net_from_ckpt(os.path.join(out, run, "ckpt.pt"))[0].eval() for run in ("flw", "cls")]
    spot = net_from_ckpt(os.path.join(out, "spot", "ckpt.pt"))[0].eval()
    x = torch.rand(3, 3, FLW_H, FLW_W)
    with torch.no_grad():
        got = F.softmax(FlowerMix(ReaderEnsemble(readers), spot, 0.3).eval()(x), dim=1)
        mean = sum(F.softmax(r(x)[:, F0:F0 + 8], dim=1) for r in readers) / 2
        p = mean ** 0.7 * F.softmax(spot(x)[:, F0:F0 + 8], dim=1) ** 0.3
        want = p / p.sum(1, keepdim=True)
    assert got.shape == (3, 8) and (got - want).abs().max().item() < 1e-5
    assert os.path.getsize(os.path.join(a.out, "flowers.onnx")) > os.path.getsize(os.path.join(out, "flowers-mix.onnx")), "the readers are both in"
    # export --flw-cascade: the first reader and the spotter in flowers.onnx, the second reader
    # in flowers2.onnx (export_flw_cascade checks their mix against the one graph of both)
    c = argparse.Namespace(**vars(a))
    c.out, c.flw_cascade, c.spot_scales = os.path.join(out, "flw-cascade"), True, [1.0, 0.75]
    export_from_ckpt(c)
    assert all(os.path.exists(os.path.join(c.out, f)) for f in ("flowers.onnx", "flowers2.onnx")), "both cascade files"


def _smoke_import(out):
    """train.py import: each network of an averaged classifier file comes back as a checkpoint
    that computes what the network it was exported from does (a second `m` network with other
    weights stands in for the shipped file's second classifier), and export --cls-cascade writes
    them to two files instead."""
    from onnx_weights import load_onnx_into
    torch.manual_seed(5)
    other = make_classifier("m").eval()
    with torch.no_grad():
        for prm in other.parameters():
            prm.add_(torch.randn_like(prm) * 0.05)
    sd = other.state_dict()
    os.makedirs(os.path.join(out, "cls-m2"), exist_ok=True)
    torch.save({"model": sd, "ema": sd, "step": 0, "extra": {"width": "m"}}, os.path.join(out, "cls-m2", "ckpt.pt"))
    a = argparse.Namespace(run=out, out=os.path.join(out, "ens-m"), det_run="none", cls_run="cls-m", cls_also=["cls-m2"],
                           flw_run="none", flw_also=None, spot_run=None, spot_weight=0.5)
    export_from_ckpt(a)
    x = torch.rand(3, 3, CLS_H, CLS_W)
    for member, run in ((0, "cls-m"), (1, "cls-m2"), (-1, "cls-m2")):  # -1: the file's last network
        b = argparse.Namespace(init_onnx=os.path.join(a.out, "classifier.onnx"), init_member=member, cls_width="m", large=False,
                               run=os.path.join(out, f"imported-{member}"))
        import_onnx(b)
        got = net_from_ckpt(os.path.join(b.run, "ckpt.pt"))[0].eval()
        want = net_from_ckpt(os.path.join(out, run, "ckpt.pt"))[0].eval()
        with torch.no_grad():
            d = (F.softmax(got(x), dim=1) - F.softmax(want(x), dim=1)).abs().max().item()
        assert d < 1e-4, f"import member {member} differs from {run} by {d}"
    # export --cls-cascade: the two networks in classifier.onnx and classifier2.onnx, one each
    c = argparse.Namespace(**vars(a))
    c.out, c.cls_cascade = os.path.join(out, "cascade"), True
    export_from_ckpt(c)
    for name, run in (("classifier.onnx", "cls-m"), ("classifier2.onnx", "cls-m2")):
        back = make_classifier("m")
        load_onnx_into(back, os.path.join(c.out, name), x[:1])
        want = net_from_ckpt(os.path.join(out, run, "ckpt.pt"))[0].eval()
        with torch.no_grad():
            d = (back.eval()(x) - want(x)).abs().max().item()
        assert d < 1e-4, f"cascade export: {name} differs from {run} by {d}"
        assert os.path.getsize(os.path.join(c.out, name)) < 0.6 * os.path.getsize(os.path.join(a.out, "classifier.onnx")), f"{name} holds one network"
    b.init_member = 2
    try:
        import_onnx(b)
        raise AssertionError("import accepted member 2 of a file of two networks")
    except ValueError:
        pass


def _smoke_blend(out):
    """train.py blend: the blend's weights are (1 - w) * the first's + w * the second's (weight 0
    gives the first back exactly), and two different networks are refused."""
    runs = [os.path.join(out, r, "ckpt.pt") for r in ("cls-m", "cls-m2")]
    for w in (0.0, 0.25):
        b = argparse.Namespace(init=runs[0], blend_with=runs[1], blend_weight=w, run=os.path.join(out, f"blend-{w}"))
        blend(b)
        got = torch.load(os.path.join(b.run, "ckpt.pt"), map_location="cpu")
        one, two = (torch.load(p, map_location="cpu")["ema"] for p in runs)
        for k, v in got["ema"].items():
            want = one[k] if not v.is_floating_point() else (1 - w) * one[k] + w * two[k]
            assert torch.allclose(v, want, atol=1e-6), f"blend {w}: {k} is not the weighted mean"
            if w == 0.0:
                assert torch.equal(v, one[k]), f"blend 0: {k} is not the first network's"
        assert got["extra"]["width"] == "m" and got["extra"]["blend"]["weight"] == w
        assert not torch.equal(got["ema"]["fc.weight"], two["fc.weight"])
    for bad in (argparse.Namespace(init=runs[0], blend_with=os.path.join(out, "cls", "ckpt.pt"), blend_weight=0.5, run=os.path.join(out, "blend-bad")),
                argparse.Namespace(init=runs[0], blend_with=runs[1], blend_weight=1.5, run=os.path.join(out, "blend-bad"))):
        try:
            blend(bad)
            raise AssertionError(f"blend accepted {bad.blend_with} at weight {bad.blend_weight}")
        except SystemExit as e:
            assert "blend:" in str(e), e
    assert not os.path.exists(os.path.join(out, "blend-bad")), "a refused blend wrote a checkpoint"


def _smoke_budget():
    """A run resumed after its deadline stops at once; given --extend-min it runs on past the step
    total fitted to the old deadline (stop 54: it stopped at once before), and only once."""
    past = {"deadline": time.time() - 1.0, "total": 50, "extended_min": 0.0}
    args = lambda ext: argparse.Namespace(steps=1000, deadline_min=None, extend_min=ext)  # noqa: E731
    assert Budget(args(None), dict(past)).done(50), "a run at its old total and deadline goes on"
    b = Budget(args(10.0), dict(past))
    assert not b.done(50) and b.deadline > time.time() + 9 * 60, "--extend-min did not let the run go on"
    again = Budget(args(10.0), b.state())
    assert again.deadline == b.deadline, "--extend-min moved the deadline a second time"


def _smoke_lowres():
    """data.lowres_aug keeps shapes and range, returns the crops as they are with p=0, leaves a
    flat crop flat, and takes the fine detail out of a crop: a one-pixel checkerboard averages
    to grey."""
    gen = torch.Generator().manual_seed(2)
    assert D.lowres_aug(torch.rand(2, 3, FLW_H, FLW_W), gen, p=0.0).shape == (2, 3, FLW_H, FLW_W)
    x = torch.rand(4, 3, FLW_H, FLW_W)
    assert D.lowres_aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"
    flat = torch.full((4, 3, CLS_H, CLS_W), 0.7)
    assert (D.lowres_aug(flat, gen, p=1.0) - 0.7).abs().max() < 1e-5, "a flat crop changed"
    yy, xx = torch.meshgrid(torch.arange(FLW_H), torch.arange(FLW_W), indexing="ij")
    board = ((yy + xx) % 2).float().expand(8, 3, FLW_H, FLW_W).contiguous()
    y = D.lowres_aug(board, gen, p=1.0)
    assert y.shape == board.shape and 0 <= y.min() and y.max() <= 1
    assert (y - 0.5).abs().mean() < 0.1, "the checkerboard kept its detail"


def _smoke_cut():
    """data.cut_aug returns the crops as they are with p=0, and with p=1 each crop has one side,
    at least the margin and 5 % of the tile deep and at most 58 % of the crop, whose rows or
    columns all repeat the first one inside, while the rest of the crop is untouched."""
    gen = torch.Generator().manual_seed(4)
    x = torch.rand(16, 3, CLS_H, CLS_W)
    assert D.cut_aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"
    y = D.cut_aug(x, gen, p=1.0)
    assert y.shape == x.shape
    for i in range(len(x)):
        changed = (y[i] != x[i]).any(0)  # (H, W)
        rows, cols = changed.any(1).nonzero().flatten(), changed.any(0).nonzero().flatten()
        H, W = CLS_H, CLS_W
        if changed[:, 0].all() or changed[:, -1].all():  # a left or right side
            d = len(cols)
            band = y[i, :, :, :d] if changed[:, 0].all() else y[i, :, :, W - d:]
            edge = y[i, :, :, d:d + 1] if changed[:, 0].all() else y[i, :, :, W - d - 1:W - d]
            span = W
        else:  # the top or the bottom
            assert changed[0].all() or changed[-1].all(), f"crop {i}: no side repeated"
            d = len(rows)
            band = y[i, :, :d] if changed[0].all() else y[i, :, H - d:]
            edge = y[i, :, d:d + 1] if changed[0].all() else y[i, :, H - d - 1:H - d]
            span = H
        assert 0.09 * span - 1 <= d <= 0.54 * span + 1, f"crop {i}: {d} of {span} px cut"
        assert (band == edge).all(), f"crop {i}: the cut side does not repeat the edge's pixels"
        assert int(changed.sum()) <= d * (W if span == H else H), f"crop {i}: pixels changed outside the cut side"


def _check_aug_basics(aug, seed):
    """A crop augmentation (data.*_aug) returns the crops as they are with p=0 and leaves a flat
    crop flat; returns its generator (seeded `seed`) for the checks that follow."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.rand(4, 3, CLS_H, CLS_W)
    assert aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"
    flat = torch.full((4, 3, CLS_H, CLS_W), 0.6)
    assert (aug(flat, gen, p=1.0) - 0.6).abs().max() < 1e-5, "a flat crop changed"
    return gen


def _smoke_sharpen():
    """data.sharpen_aug keeps shapes and range, returns the crops as they are with p=0, leaves a
    flat crop flat, and puts halos round a stroke: the face beside a dark bar gets lighter on
    every crop, and the bar darker at its edge on most (a third are smoothed first)."""
    gen = _check_aug_basics(D.sharpen_aug, 3)
    bar = torch.full((64, 3, CLS_H, CLS_W), 0.6)
    bar[:, :, :, 20:28] = 0.3
    y = D.sharpen_aug(bar, gen, p=1.0)
    assert y.shape == bar.shape and 0 <= y.min() and y.max() <= 1
    assert (y[:, :, :, 18] > 0.6 + 1e-3).all(), "no light halo beside the bar"
    assert (y[:, 0, :, 20] < 0.3 - 1e-3).float().mean() > 0.6, "the bar's edge did not darken"


def _smoke_blur():
    """data.blur_aug keeps shapes and range, returns the crops as they are with p=0, leaves a flat
    crop flat, and spreads a thin dark bar: its centre lightens and its neighbourhood darkens; a
    horizontal motion streak spreads a vertical bar sideways and leaves a horizontal one alone."""
    gen = _check_aug_basics(D.blur_aug, 5)
    bar = torch.full((16, 3, CLS_H, CLS_W), 0.8)
    bar[:, :, :, 22:24] = 0.1
    y = D.blur_aug(bar, gen, p=1.0)
    assert y.shape == bar.shape and 0 <= y.min() and y.max() <= 1
    assert (y[:, 0, 30, 22] > 0.1 + 0.05).all(), "the bar did not lighten"
    assert (y[:, 0, 30, 20] < 0.8 - 0.02).float().mean() > 0.5, "the bar did not spread"
    v = D._motion(bar[:1], 7.0, 0.0)
    assert v[0, 0, 30, 20] < 0.8 - 0.05 and abs(float(v[0, 0, 30, 12]) - 0.8) < 1e-5, "a horizontal streak did not spread the bar sideways only"
    h = torch.full((1, 3, CLS_H, CLS_W), 0.8)
    h[:, :, 30:32, :] = 0.1
    assert (D._motion(h, 7.0, 0.0) - h).abs().max() < 1e-5, "a horizontal streak changed a horizontal bar"


def _smoke_ink():
    """data.ink_aug keeps shapes and range, leaves a blank face blank, and prints a coloured
    stroke in one ink (all three channels equal for the near-black ink)."""
    gen = torch.Generator().manual_seed(1)
    x = torch.full((64, 3, CLS_H, CLS_W), 0.9)
    x[:, 0, 20:40, 20:28] = 0.2  # a cyan stroke: only the red channel is dark
    y = D.ink_aug(x, gen, p=1.0, outline=0.0)
    assert y.shape == x.shape and 0 <= y.min() and y.max() <= 1
    assert (y[:, :, :10, :10] - x[:, :, :10, :10]).abs().max() < 1e-5, "the blank face changed"
    stroke = y[:, :, 25:35, 22:26].mean((2, 3))  # (64, 3)
    assert (stroke.max(1).values < 0.5).all(), "the stroke is not dark in every channel"
    assert D.ink_aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"


def _smoke_spotter(b, out):
    """One step of the character spotter (its trunk from the classifier), then the reader +
    spotter export: the ONNX file's softmax is the normalised product reader^(1-w) * spotter^w."""
    c = argparse.Namespace(**vars(b))
    c.run = os.path.join(out, "spot")
    c.cls_width = "spot"
    # the spotter's trunk is the `m` classifier's (the smoke classifier is `s`): one step of one
    m = argparse.Namespace(**vars(b))
    m.mode, m.run, m.cls_width, m.init_onnx, m.tiles = "cls", os.path.join(out, "cls-m"), "m", None, None
    train_cls(m)
    c.init_onnx = os.path.join(m.run, "classifier.onnx")
    train_cls(c)
    spot, state = net_from_ckpt(os.path.join(c.run, "ckpt.pt"))
    assert state["extra"]["width"] == "spot"
    # a run started from its checkpoint (run_spot2.sh) keeps BatchNorm frozen, as the first did
    d = argparse.Namespace(**vars(c))
    d.run, d.init, d.init_onnx = os.path.join(out, "spot-init"), os.path.join(c.run, "ckpt.pt"), None
    train_cls(d)
    assert torch.load(os.path.join(d.run, "ckpt.pt"), map_location="cpu")["extra"]["frozen_bn"], "spotter phase 2 unfroze BatchNorm"
    # --spot-input-scale (run_spot6.sh): one step on enlarged crops, the scale kept in the checkpoint
    # (a resumed run reads it from there); refused for anything but the spotter
    e = argparse.Namespace(**vars(d))
    e.run, e.spot_input_scale = os.path.join(out, "spot-big"), 1.5
    train_cls(e)
    got = torch.load(os.path.join(e.run, "ckpt.pt"), map_location="cpu")
    assert got["step"] == 1 and got["extra"].get("input_scale") == 1.5, f"the enlarged-crop spotter's checkpoint: {got['extra']}"
    big, _ = spotter_from_ckpt(os.path.join(e.run, "ckpt.pt"))
    assert isinstance(big, ScaledSpotter) and not isinstance(spotter_from_ckpt(os.path.join(d.run, "ckpt.pt"))[0], ScaledSpotter)
    xb = torch.rand(2, 3, FLW_H, FLW_W)
    with torch.no_grad():
        big.eval()
        want = big.net(F.interpolate(xb, size=(144, 108), mode="bilinear", align_corners=False))
        assert (big(xb) - want).abs().max().item() < 1e-5, "the scaled spotter does not read the crop enlarged 1.5 times"
    g = argparse.Namespace(**vars(e))
    g.run, g.init, g.spot_input_scale = os.path.join(out, "spot-big-init"), os.path.join(e.run, "ckpt.pt"), None
    train_cls(g)
    assert torch.load(os.path.join(g.run, "ckpt.pt"), map_location="cpu")["extra"].get("input_scale") == 1.5, "a run from the enlarged spotter's checkpoint lost its scale"
    f = argparse.Namespace(**vars(m))
    f.run, f.init_onnx, f.spot_input_scale = os.path.join(out, "cls-big"), None, 1.5
    try:
        train_cls(f)
        raise AssertionError("--spot-input-scale was taken for a classifier")
    except SystemExit as err:
        assert "spotter only" in str(err), err
    reader, _ = net_from_ckpt(os.path.join(b.run, "ckpt.pt"))
    # the trunk came from the classifier's first six blocks (one step moves a weight by about lr)
    from onnx_weights import load_onnx_into
    src = Classifier("m")
    load_onnx_into(src, c.init_onnx, torch.zeros(1, 3, FLW_H, FLW_W))
    for k in (0, 5):
        wa, wb = src.net[k].state_dict(), spot.net[k].state_dict()
        diff = max((wa[n] - wb[n]).abs().max().item() for n in wa if n.endswith("weight"))
        assert diff < 0.02, f"spotter block {k} was not started from the classifier ({diff})"
    x = torch.rand(3, 3, FLW_H, FLW_W)
    mix = FlowerMix(reader, spot, 0.3).eval()  # eval() reaches the two networks inside
    with torch.no_grad():
        got = F.softmax(mix(x), dim=1)
        p = F.softmax(reader(x)[:, F0:F0 + 8], dim=1) ** 0.7 * F.softmax(spot(x)[:, F0:F0 + 8], dim=1) ** 0.3
        want = p / p.sum(1, keepdim=True)
    assert got.shape == (3, 8) and (got - want).abs().max().item() < 1e-5
    path = os.path.join(out, "flowers-mix.onnx")
    export_flw(reader, path, spotter=spot, spot_weight=0.3)
    assert os.path.getsize(path) > os.path.getsize(os.path.join(b.run, "flowers.onnx")), "the mix holds both networks"
    # --spot-scales 1 0.75: the spotter also reads the crop shrunk to 72x54; its two log-softmaxes share its weight
    mix2 = FlowerMix(reader, spot, 0.4, (1.0, 0.75)).eval()
    with torch.no_grad():
        got = F.softmax(mix2(x), dim=1)
        small = F.interpolate(x, size=(72, 54), mode="bilinear", align_corners=False)
        p = (F.softmax(reader(x)[:, F0:F0 + 8], dim=1) ** 0.6 * F.softmax(spot(x)[:, F0:F0 + 8], dim=1) ** 0.2
             * F.softmax(spot(small)[:, F0:F0 + 8], dim=1) ** 0.2)
        want = p / p.sum(1, keepdim=True)
    assert (got - want).abs().max().item() < 1e-5
    path2 = os.path.join(out, "flowers-mix2.onnx")
    export_flw(reader, path2, spotter=spot, spot_weight=0.4, spot_scales=(1.0, 0.75))
    assert os.path.getsize(path2) >= os.path.getsize(path), "the two-scale mix holds the same networks"
    # the spotter, run twice in that graph (its second run reaches the weights through Identity
    # nodes), imports back as the last network of the file
    c2 = argparse.Namespace(init_onnx=path2, init_member=-1, cls_width="spot", large=False, run=os.path.join(out, "imported-spot2"))
    import_onnx(c2)
    back = net_from_ckpt(os.path.join(c2.run, "ckpt.pt"))[0].eval()
    with torch.no_grad():
        d = (F.softmax(back(x), dim=1) - F.softmax(spot(x), dim=1)).abs().max().item()
    assert d < 1e-4, f"the spotter imported from the two-scale mix differs by {d}"
    # export --spot-also: two spotters in one graph give the normalised geometric mean of their
    # eight-way softmaxes (the imported copy, a second network of other weights, stands in)
    with torch.no_grad():
        for q in back.parameters():
            q.add_(0.05 * torch.randn_like(q))
        both = SpotterEnsemble([spot, back]).eval()
        got = F.softmax(both(x)[:, F0:F0 + 8], dim=1)
        p = (F.softmax(spot(x)[:, F0:F0 + 8], dim=1) * F.softmax(back(x)[:, F0:F0 + 8], dim=1)) ** 0.5
        want = p / p.sum(1, keepdim=True)
        alone = F.softmax(spot(x)[:, F0:F0 + 8], dim=1)
    assert (got - want).abs().max().item() < 1e-5, "the spotter ensemble is not the geometric mean of its spotters"
    assert (got - alone).abs().max().item() > 1e-4, "the second spotter changed nothing (the check cannot fail)"
    _smoke_numerals(b, out, reader, spot)


def _smoke_numerals(b, out, reader, spot):
    """numerals.py: its crops (96x72, labels 0..4), one training step from an `m` classifier's
    checkpoint (the shipped one starts from flower reader phase 1), and export --num-run: the flower mix times (p(numeral of fk) + p(none)/4)^w."""
    import random
    import numerals as NU
    fonts = NU.Fonts()
    r = random.Random(1)
    crops = [NU.sample(r, fonts) for _ in range(40)]
    assert all(x.shape == (FLW_H, FLW_W, 3) and x.dtype == np.uint8 for x, _ in crops)
    labels = {y for _, y in crops}
    assert labels <= set(range(5)) and NU.NONE in labels and len(labels) >= 4, labels
    n = argparse.Namespace(run=os.path.join(out, "num"), init=os.path.join(out, "cls-m", "ckpt.pt"), seed=1, threads=None, batch=4, lr=1e-3,
                           steps=1, deadline_min=None, extend_min=None, ckpt_min=4.0, workers=0, check=8)
    NU.train(n)
    state = torch.load(os.path.join(n.run, "ckpt.pt"), map_location="cpu")
    assert state["step"] == 1 and state["extra"]["numerals"]
    num = NU.make_net()[0]
    num.load_state_dict(state["ema"])
    num.eval()
    # no numeral read: the factor is flat; a sure 3: flowers 3 and 7 gain
    flat = numeral_factor(torch.tensor([[0.0, 0.0, 0.0, 0.0, 30.0]]))
    assert (flat - flat[:, :1]).abs().max().item() < 1e-4
    three = numeral_factor(torch.tensor([[0.0, 0.0, 30.0, 0.0, 0.0]]))[0]
    assert three.argmax().item() in (2, 6) and abs(three[2] - three[6]).item() < 1e-6 and (three[2] - three[0]).item() > 5
    x = torch.rand(3, 3, FLW_H, FLW_W)
    with torch.no_grad():
        got = F.softmax(FlowerMix(reader, spot, 0.3, (1.0,), num, 0.5).eval()(x), dim=1)
        q = F.softmax(num(x), dim=1)
        q = q[:, :4] + q[:, 4:] / 4
        p = (F.softmax(reader(x)[:, F0:F0 + 8], dim=1) ** 0.7 * F.softmax(spot(x)[:, F0:F0 + 8], dim=1) ** 0.3
             * torch.cat([q, q], dim=1) ** 0.5)
        want = p / p.sum(1, keepdim=True)
    assert (got - want).abs().max().item() < 1e-5
    a = argparse.Namespace(run=out, out=os.path.join(out, "num-flw"), det_run="none", cls_run="none", cls_also=None,
                           flw_run="flw", flw_also=None, spot_run="spot", spot_weight=0.3, num_run="num", num_weight=0.5)
    export_from_ckpt(a)
    assert os.path.getsize(os.path.join(a.out, "flowers.onnx")) > os.path.getsize(os.path.join(out, "flowers-mix.onnx")), "the numeral reader is in"
    # --renderer (stop 64): the generator's own flower faces, labelled by the numeral they print,
    # and the head folded from the start's flower rows (numeral j = mean of flower j and season j)
    r = argparse.Namespace(**vars(n))
    r.run, r.renderer, r.train, r.tiles, r.val, r.shape, r.blur = os.path.join(out, "num-r"), True, b.train, b.tiles, b.train[0], 0.5, 0.3
    os.makedirs(r.run, exist_ok=True)
    x, y = next(NU.renderer_batches(r, torch.Generator().manual_seed(0), r.run))
    assert x.shape == (4, 3, FLW_H, FLW_W) and set(y.tolist()) <= set(range(4)), (x.shape, y)
    start = torch.load(r.init, map_location="cpu")["ema"]
    net = NU.make_net(r.init)[0]
    NU.fold_head(net, r.init)
    want = (start["fc.weight"][F0 + 2] + start["fc.weight"][F0 + 6]) / 2
    assert torch.allclose(net.fc.weight[2], want) and net.fc.bias[NU.NONE] < net.fc.bias[:4].min()
    NU.train(r)
    state = torch.load(os.path.join(r.run, "ckpt.pt"), map_location="cpu")
    assert state["step"] == 1 and state["extra"]["numerals"]


def _smoke_verifier(a, out):
    """verifier.py: the crops of a scene (its tiles, the smoke detector's false finds, the table and
    boxes half a tile off), one training step from an `m` classifier's checkpoint with plain-faced
    tiles oversampled, and the export: (n, 2) logits for the classifier's 64x48 crops."""
    import random
    from PIL import Image
    import verifier as VE
    det = VE.load_detector(os.path.join(out, "det", "detector.onnx"))
    P, L, S, B = VE.load_sets([a.train[0]], 3, det, 1, log_fn=lambda m: None)
    assert P.shape[1:] == (D.PATCH, D.PATCH, 3) and set(L.tolist()) == {VE.NOT_TILE, VE.TILE}
    # every not-tile box overlaps no labelled tile by IoU 0.3 or more
    d = D.resolve_dir(a.train[0])
    name = sorted(n for n in os.listdir(os.path.join(d, "labels")) if n.endswith(".json"))[0]
    with open(os.path.join(d, "labels", name)) as f:
        lab = json.load(f)
    im = Image.open(os.path.join(d, "images", name[:-5] + ".jpg")).convert("RGB")
    p, l, s, b = VE.scene_items(im, lab, None, random.Random(2))
    assert l.count(VE.TILE) == sum(1 for t in lab["tiles"] if t["box"][2] >= 6 and t["box"][3] >= 6) and l.count(VE.NOT_TILE) >= 6
    assert sum(b) == sum(1 for t in lab["tiles"] if t["code"] in VE.PLAIN and t["box"][2] >= 6 and t["box"][3] >= 6)
    idx = VE.balanced(L, B | (np.arange(len(L)) % 2 == 0) & (L == VE.TILE), 16, torch.Generator().manual_seed(0), plain_share=0.5)
    assert (L[idx] == VE.TILE).sum() == 8
    v = argparse.Namespace(run=os.path.join(out, "ver"), init=os.path.join(out, "cls-m", "ckpt.pt"), detector=os.path.join(out, "det", "detector.onnx"),
                           sets=[a.train[0]], per_set=3, check_set=a.train[0], check_n=2, seed=1, batch=8, lr=1e-3, steps=1,
                           deadline_min=None, extend_min=None, ckpt_min=5.0, threads=None, plain_share=0.3)
    VE.train(v)
    state = torch.load(os.path.join(v.run, "ckpt.pt"), map_location="cpu")
    assert state["step"] == 1 and state["extra"]["verifier"]
    e = argparse.Namespace(run=v.run, out=os.path.join(v.run, "verifier.onnx"))
    VE.export(e)
    _check_onnx_round_trip(lambda: VE.make_net()[0], os.path.join(v.run, "ckpt.pt"), e.out, torch.rand(3, 3, CLS_H, CLS_W))
    # a second run starts from the first's checkpoint and keeps its two-way head
    again = VE.make_net(os.path.join(v.run, "ckpt.pt"))[0]
    assert torch.equal(again.fc.weight, state["ema"]["fc.weight"])


def import_onnx(a):
    """A checkpoint (runs/<--run>/ckpt.pt, EMA = weights) from an exported classifier, flower
    reader or character spotter, one network of a file of several with --init-member (-1: the
    last, the spotter of flowers.onnx), so that `export --cls-also` / `--flw-also` can average a
    new run with the networks already shipped (their training checkpoints do not survive a
    fresh checkout)."""
    from onnx_weights import load_onnx_into
    if not a.init_onnx or not a.run:
        raise SystemExit("import: --init-onnx FILE and --run DIR are required")
    model = make_classifier(a.cls_width)  # "spot": the character spotter (member -1 of flowers.onnx)
    load_onnx_into(model, a.init_onnx, torch.zeros(1, 3, FLW_H, FLW_W), member=a.init_member)
    os.makedirs(a.run, exist_ok=True)
    sd = model.state_dict()
    torch.save({"model": sd, "ema": sd, "step": 0, "extra": {"width": a.cls_width, "frozen_bn": True, "large": bool(a.large), "imported": a.init_onnx, "member": a.init_member}},
               os.path.join(a.run, "ckpt.pt"))
    print(f"import: {a.init_onnx} (member {a.init_member}) -> {os.path.join(a.run, 'ckpt.pt')}")


def blend(a):
    """A checkpoint (runs/<--run>/ckpt.pt, EMA = weights) whose weights lie between two of the
    same network: (1 - w) * --init's + w * --blend-with's, w = --blend-weight. With --init the
    network a fine-tune started from (`import` of its init.onnx) and --blend-with the fine-tune,
    this keeps part of what the fine-tune learned while staying near the start, which read held-out
    designs better (weight-space ensembling of a fine-tune, WiSE-FT; model/HISTORY.md, stop 57).
    BatchNorm statistics are blended too; a fine-tune with BatchNorm frozen leaves them as they
    were."""
    if not a.init or not a.blend_with or not a.run:
        raise SystemExit("blend: --init CKPT, --blend-with CKPT and --run DIR are required")
    w = a.blend_weight
    if not 0.0 <= w <= 1.0:
        raise SystemExit(f"blend: --blend-weight {w} is outside 0..1")
    one, two = (torch.load(p, map_location="cpu") for p in (a.init, a.blend_with))
    for key, default in (("width", "s"), ("large", False), ("input_scale", 1.0)):
        if one.get("extra", {}).get(key, default) != two.get("extra", {}).get(key, default):
            raise SystemExit(f"blend: {a.init} and {a.blend_with} differ in {key} (width, crop size or spotter scale); they are not the same network")
    ea, eb = one["ema"], two["ema"]
    bad = sorted(k for k in set(ea) | set(eb) if k not in ea or k not in eb or ea[k].shape != eb[k].shape)
    if bad:
        raise SystemExit(f"blend: {a.init} and {a.blend_with} differ in {len(bad)} tensors ({', '.join(bad[:3])}); they are not the same network")
    sd = {k: torch.lerp(v.float(), eb[k].float(), w).to(v.dtype) if v.is_floating_point() else v for k, v in ea.items()}
    os.makedirs(a.run, exist_ok=True)
    extra = dict(one.get("extra", {}), blend={"init": a.init, "with": a.blend_with, "weight": w})
    torch.save({"model": sd, "ema": sd, "step": 0, "extra": extra}, os.path.join(a.run, "ckpt.pt"))
    print(f"blend: {1 - w:g} x {a.init} + {w:g} x {a.blend_with} -> {os.path.join(a.run, 'ckpt.pt')}")


def export_from_ckpt(a):
    """Export the EMA weights of runs/<det|cls>/ckpt.pt to ONNX files in --out."""
    out = a.out or os.path.join(D.ROOT, "model")
    os.makedirs(out, exist_ok=True)

    def run_ckpt(run):
        return os.path.join(a.run or RUNS, run, "ckpt.pt")

    # the finder (finder.onnx) is a second detector: the pipeline adds its confident finds (mergeFinds)
    for kind, fn, name in (("det", export_det, "detector.onnx"), ("finder", export_det, "finder.onnx"), ("cls", export_cls, "classifier.onnx"), ("flw", export_flw, "flowers.onnx")):
        ck = run_ckpt({"det": a.det_run, "finder": getattr(a, "finder_run", None) or "none", "cls": a.cls_run, "flw": a.flw_run}[kind])
        if not os.path.exists(ck):
            print(f"skip {kind}: no {ck}")
            continue
        m, state = net_from_ckpt(ck, det=kind in ("det", "finder"))
        if kind == "cls":
            large = bool(state.get("extra", {}).get("large", False))
            if a.cls_also and getattr(a, "cls_cascade", False):
                # the pipeline's cascade (readCrops): classifier.onnx reads every crop, and
                # classifier2.onnx the ones the first is not sure of; each file holds one network
                if len(a.cls_also) != 1:
                    raise SystemExit("export --cls-cascade: give exactly one --cls-also run (the second classifier)")
                second, st = net_from_ckpt(run_ckpt(a.cls_also[0]))
                assert bool(st.get("extra", {}).get("large", False)) == large, f"{a.cls_also[0]}: another crop size"
                fn(second, os.path.join(out, "classifier2.onnx"), large)
                print(f"  second classifier {a.cls_also[0]} -> {os.path.join(out, 'classifier2.onnx')}")
            elif a.cls_also:
                nets = [m]
                for run in a.cls_also:
                    net, st = net_from_ckpt(run_ckpt(run))
                    assert bool(st.get("extra", {}).get("large", False)) == large, f"{run}: another crop size"
                    nets.append(net)
                m = ClassifierEnsemble(nets)
                print(f"  averaged with {', '.join(a.cls_also)}")
            fn(m, os.path.join(out, name), large)
        elif kind == "flw" and getattr(a, "flw_cascade", False):
            # the pipeline's flower cascade (readFlowers): flowers.onnx the first reader and the
            # spotter, flowers2.onnx the second reader, for the flowers the first mix is unsure of
            if not a.flw_also or len(a.flw_also) != 1 or not a.spot_run:
                raise SystemExit("export --flw-cascade: give exactly one --flw-also run (the second reader) and --spot-run")
            second = net_from_ckpt(run_ckpt(a.flw_also[0]))[0]
            sp = spotter_from_ckpt(run_ckpt(a.spot_run))[0]
            if getattr(a, "spot_also", None):
                sp = SpotterEnsemble([sp] + [spotter_from_ckpt(run_ckpt(run))[0] for run in a.spot_also])
                print(f"  spotters averaged with {', '.join(a.spot_also)}")
            export_flw_cascade(m, second, sp, out, a.spot_weight, tuple(getattr(a, "spot_scales", None) or (1.0,)))
            print(f"  second reader {a.flw_also[0]} -> {os.path.join(out, 'flowers2.onnx')}; spotter {run_ckpt(a.spot_run)} at weight {a.spot_weight}")
        elif kind == "flw":
            if getattr(a, "spot_also", None):
                raise SystemExit("export --spot-also: only with --flw-cascade")
            if a.flw_also:
                m = ReaderEnsemble([m] + [net_from_ckpt(run_ckpt(run))[0] for run in a.flw_also])
                print(f"  readers averaged with {', '.join(a.flw_also)}")
            sp = spotter_from_ckpt(run_ckpt(a.spot_run))[0] if a.spot_run else None
            nr = None
            if getattr(a, "num_run", None):
                if sp is None:
                    raise SystemExit("export --num-run: the numeral reader joins the flower mix, which needs --spot-run")
                from numerals import make_net
                nr = make_net()[0]
                nr.load_state_dict(torch.load(run_ckpt(a.num_run), map_location="cpu")["ema"])
            fn(m, os.path.join(out, name), spotter=sp, spot_weight=a.spot_weight, spot_scales=tuple(getattr(a, "spot_scales", None) or (1.0,)),
               numerals=nr, num_weight=getattr(a, "num_weight", 0.0))
            if sp is not None:
                print(f"  with the spotter {run_ckpt(a.spot_run)} at weight {a.spot_weight}, scales {getattr(a, 'spot_scales', None) or [1.0]}")
            if nr is not None:
                print(f"  with the numeral reader {run_ckpt(a.num_run)} at weight {a.num_weight}")
        else:
            fn(m, os.path.join(out, name))
        print(f"exported {ck} -> {os.path.join(out, name)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["det", "cls", "flw", "smoke", "export", "import", "blend"])
    ap.add_argument("--train", nargs="+", default=[os.path.join(D.ROOT, "training-data", "train")])
    ap.add_argument("--tiles", nargs="*", default=None)
    ap.add_argument("--val", default=None)
    ap.add_argument("--val-n", type=int, default=100)
    ap.add_argument("--run", default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--det-run", default="det", help="export: run dir name under runs/")
    ap.add_argument("--finder-run", default="none", help="export: a detector run exported as finder.onnx (the pipeline's second detector, Models.finder)")
    ap.add_argument("--cls-run", default="cls", help="export: run dir name under runs/")
    ap.add_argument("--flw-run", default="flw", help="export: run dir name under runs/")
    ap.add_argument("--cls-also", nargs="*", default=None, help="export: more classifier runs; classifier.onnx then averages their probabilities with --cls-run's (ClassifierEnsemble)")
    ap.add_argument("--cls-cascade", action="store_true", help="export: with one --cls-also run, write it to classifier2.onnx and --cls-run's alone to classifier.onnx (the pipeline's cascade) instead of one averaged graph")
    ap.add_argument("--flw-cascade", action="store_true", help="export: with one --flw-also run and --spot-run, write the first reader and the spotter to flowers.onnx (FlowerParts) and the second reader to flowers2.onnx (the pipeline's flower cascade) instead of one graph")
    ap.add_argument("--flw-also", nargs="*", default=None, help="export: more flower-reader runs; their eight-way softmaxes are averaged with --flw-run's (ReaderEnsemble)")
    ap.add_argument("--spot-also", nargs="*", default=None, help="export --flw-cascade: more spotter runs, their log-softmaxes averaged with --spot-run's (SpotterEnsemble)")
    ap.add_argument("--spot-run", default=None, help="export: the character spotter's run (flw --cls-width spot); flowers.onnx then mixes reader and spotter")
    ap.add_argument("--spot-scales", type=float, nargs="+", default=None, help="export: the spotter reads the crop at these scales and averages its log-softmaxes (FlowerMix; default 1)")
    ap.add_argument("--spot-weight", type=float, default=0.5, help="export: the spotter's weight in that mix (the reader's is 1 - w)")
    ap.add_argument("--num-run", default=None, help="export: the numeral reader's run (numerals.py); its evidence joins the flower mix (FlowerMix, numeral_factor)")
    ap.add_argument("--num-weight", type=float, default=0.5, help="export: the numeral reader's exponent in that mix")
    ap.add_argument("--grey", type=float, default=None, help="cls/flw: probability of a greyscale crop (default 0.08, flw 0.35)")
    ap.add_argument("--shuffle", type=float, default=None, help="cls/flw: probability of swapped colour channels (default 0, flw 0.25)")
    ap.add_argument("--shape", type=float, default=0.0, help="cls/flw: probability of each shape change (data.shape_aug: elastic warp, stroke width; frames at 0.08)")
    ap.add_argument("--ink", type=float, default=0.0, help="cls/flw: probability of reprinting a crop's drawing in one dark ink, a third of them as outlines (data.ink_aug)")
    ap.add_argument("--blur", type=float, default=0.0, help="cls/flw: probability of a heavy blur, Gaussian or a motion streak at any angle (data.blur_aug)")
    ap.add_argument("--sharpen", type=float, default=0.0, help="cls/flw: probability of a phone's sharpening (data.sharpen_aug: an unsharp mask, a third after light smoothing)")
    ap.add_argument("--spot-input-scale", type=float, default=None, help="flw --cls-width spot: enlarge each 96x72 crop by this factor (default 1, or the --init checkpoint's) (bilinear, as FlowerMix's --spot-scales does in the graph) before the spotter, so that small characters span more cells; kept in the checkpoint, and export and flower_mix.py read such a spotter through ScaledSpotter")
    ap.add_argument("--cut", type=float, default=0.0, help="cls: probability of showing a crop as the pipeline reads a tile cut by the photo's edge (data.cut_aug: one side repeats the last pixels inside)")
    ap.add_argument("--lowres", type=float, default=0.0, help="cls/flw: probability of shrinking a crop to 30 px .. 0.8x its height and enlarging it back (data.lowres_aug: a tile photographed small)")
    ap.add_argument("--init-member", type=int, default=None, help="cls: with --init-onnx, the network to start from in a file of averaged networks (0 = the first)")
    ap.add_argument("--large", action="store_true", help="cls: 96x72 crops from 160 px patches (the flower reader's), all classes")
    ap.add_argument("--init", default=None, help="cls: start from the EMA weights of this checkpoint (fresh optimiser and schedule); blend: the first checkpoint")
    ap.add_argument("--blend-with", default=None, help="blend: the second checkpoint (a fine-tune of --init's network)")
    ap.add_argument("--blend-weight", type=float, default=0.5, help="blend: its weight w; the blend is (1 - w) * --init + w * --blend-with")
    ap.add_argument("--init-onnx", default=None, help="det/cls: start from the weights of an exported ONNX model (onnx_weights.py); BatchNorm stays frozen")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--cls-width", choices=["s", "m", "spot"], default="s", help="cls/flw: classifier width preset (models.CLS_WIDTHS), or spot: the flower-character spotter (models.Spotter, flw only); a resumed run keeps its own")
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--crop", type=int, default=320)
    ap.add_argument("--lr", type=float, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--min-items", type=int, default=200, help="wait until this many scenes exist")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--ckpt-min", type=float, default=3.0)
    ap.add_argument("--extend-min", type=float, default=None, help="move the deadline of a resumed run this many minutes later (once)")
    ap.add_argument("--deadline-min", type=float, default=None, help="wall-clock budget in minutes, fixed at the first start and kept across resumes")
    a = ap.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    D.load_classes()
    if a.batch is None:
        a.batch = 16 if a.mode == "det" else 128
    if a.lr is None:
        a.lr = 3e-3 if a.mode == "det" else 2e-3
    {"det": train_det, "cls": train_cls, "flw": train_cls, "smoke": smoke, "export": export_from_ckpt, "import": import_onnx, "blend": blend}[a.mode](a)


if __name__ == "__main__":
    main()
