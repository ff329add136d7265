"""The crop trainers' loop: the classifier (mode cls), the flower reader (mode flw: the same
network on 96x72 crops of flowers and seasons, its loss over the eight flower logits) and the
character spotter (mode flw, width spot)."""
import os
import time

import numpy as np
import torch

from ..data.batches import cls_batch
from ..data.sets import CLASSES, FLOWER_CODES, FLW_PATCH, PATCH, GrowingScenes, GrowingTiles, cls_pool
from ..models.graphs import F0, enlarge
from ..models.nets import CLS_H, CLS_W, FLW_H, FLW_W, Classifier, count_params, make_classifier
from ..models.onnx_weights import freeze_bn, load_onnx_into
from .common import EMA, Budget, ce_step, load_ckpt, log, lr_at, save_ckpt, wait_for_items


@torch.no_grad()
def cls_eval(model, patches, labels, side, flw=False, large=False, up=None):
    """Crop accuracy; `up` (spotter runs with --spot-input-scale) enlarges the crops first."""
    model.eval()
    gen = torch.Generator().manual_seed(0)
    correct = 0
    hw = (FLW_H, FLW_W) if flw or large else (CLS_H, CLS_W)
    for s in range(0, len(labels), 256):
        idx = np.arange(s, min(s + 256, len(labels)))
        x, y = cls_batch(patches, labels, side, idx, gen, out_h=hw[0], out_w=hw[1], aug=False)
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
    run = a.run
    os.makedirs(run, exist_ok=True)
    ck = os.path.join(run, "ckpt.pt")
    large = bool(a.large)
    if os.path.exists(ck):
        large = bool(torch.load(ck, map_location="cpu").get("extra", {}).get("large", False))
    codes = FLOWER_CODES if flw else None
    patch = FLW_PATCH if flw or large else PATCH
    out_h, out_w = (FLW_H, FLW_W) if flw or large else (CLS_H, CLS_W)
    grey = a.grey if a.grey is not None else (0.35 if flw else 0.08)
    shuffle = a.shuffle if a.shuffle is not None else (0.25 if flw else 0.0)
    scenes = GrowingScenes(a.train, "cls", limit=a.limit, codes=codes, patch=patch)
    tiles = GrowingTiles(a.tiles or [], limit=None if a.limit is None else a.limit * 10, codes=codes, patch=patch)
    wait_for_items(scenes, a.min_items, "scenes", run)
    tiles.refresh()
    pool = cls_pool(scenes, tiles)
    vp = None
    if a.val:
        val = GrowingScenes([a.val], "cls", limit=a.limit, codes=codes, patch=patch)
        wait_for_items(val, min(50, a.limit or 50), "validation scenes", run)
        vp, vl, vs = cls_pool(val, None)
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
                pool = cls_pool(scenes, tiles)
                counts = np.bincount(pool[1], minlength=len(CLASSES))
                log(run, f"data: +{n} -> {len(pool[1])} crops ({len(scenes)} scenes, {len(tiles.labels)} single tiles), min class count {counts.min()}")
        patches, labels, side = pool
        for g in opt.param_groups:
            g["lr"] = lr_at(step, bud.total, a.lr)
        idx = torch.randint(0, len(labels), (a.batch,), generator=gen).numpy()
        x, y = cls_batch(patches, labels, side, idx, gen, out_h=out_h, out_w=out_w, grey=grey, shuffle=shuffle, shape=a.shape, ink=a.ink, lowres=a.lowres, sharpen=a.sharpen, cut=a.cut, blur=a.blur)
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
    return ema.m
