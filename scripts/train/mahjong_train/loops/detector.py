"""The detector's training loop (mode det): focal heatmap loss and box regression on affine
crops of the scenes, EMA weights, validation recall/precision at each checkpoint."""
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

from ..data.batches import det_batch
from ..data.sets import GrowingScenes
from ..models.nets import Detector, count_params
from ..models.onnx_weights import freeze_bn, load_onnx_into
from .common import EMA, Budget, load_ckpt, log, lr_at, save_ckpt, wait_for_items


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
        x, _, _, _ = det_batch(images, quads, sideways, idx, gen, out_size=size, aug=False)
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


def train_det(a):
    torch.manual_seed(a.seed)
    run = a.run
    os.makedirs(run, exist_ok=True)
    ds = GrowingScenes(a.train, "det", limit=a.limit)
    wait_for_items(ds, a.min_items, "scenes", run)
    val = None
    if a.val:
        val = GrowingScenes([a.val], "det", limit=a.limit or a.val_n)
        wait_for_items(val, min(a.val_n, 50), "validation scenes", run)
    model = Detector()
    ema = EMA(model)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(a.seed)
    ck = os.path.join(run, "ckpt.pt")
    if a.init_onnx and not os.path.exists(ck):
        load_onnx_into(model, a.init_onnx, torch.zeros(1, 3, 256, 256), member=a.init_member)
        ema.m.load_state_dict(model.state_dict())
        log(run, f"initialised from {a.init_onnx} (BatchNorm folded into the convolutions; BatchNorm frozen)")
    step, extra = load_ckpt(ck, model, ema, opt, gen)
    bud = Budget(a, extra)
    log(run, f"det: {len(ds)} scenes (complete={ds.complete}), params {count_params(model)}, start step {step}/{a.steps}, threads {torch.get_num_threads()}")
    model.train()
    if a.init_onnx:
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
        idx = ds.draw(a.batch, gen, a.shares)
        images, quads, side = ds.det_arrays(idx)
        x, hm, box, mask = det_batch(images, quads, side, np.arange(len(idx)), gen, out_size=a.crop)
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
    return ema.m
