"""Networks from checkpoints (runs/<stage>/ckpt.pt: model, EMA, optimiser, step, RNG, extra),
checkpoints from exported ONNX files (import), and weight blends of two checkpoints."""
import os

import torch

from .graphs import ScaledSpotter
from .nets import FLW_H, FLW_W, Classifier, Detector, make_classifier
from .onnx_weights import load_onnx_into


def net_from_ckpt(path, det=False):
    """The EMA weights of a checkpoint in their network (the Detector, or make_classifier by the
    run's width preset), and the checkpoint itself."""
    state = torch.load(path, map_location="cpu")
    net = Detector() if det else make_classifier(state.get("extra", {}).get("width", "s"))
    net.load_state_dict(state["ema"])
    return net, state


def spotter_from_ckpt(path):
    """A spotter run's EMA network, wrapped in ScaledSpotter when it was trained on enlarged crops."""
    net, state = net_from_ckpt(path)
    k = float(state.get("extra", {}).get("input_scale", 1.0))
    return (ScaledSpotter(net, k) if k != 1.0 else net), state


def head_net(init, n_out, tag):
    """The classifier network (width m) with a new n_out-way head (the verifier). Its trunk comes
    from `init`, a cls/flw checkpoint's EMA weights; a checkpoint of the same kind (extra[tag])
    keeps its head too. Returns (net, BatchNorm frozen: the start was an import)."""
    net = Classifier("m")
    st = torch.load(init, map_location="cpu") if init else None
    extra = st.get("extra", {}) if st else {}
    if st and not extra.get(tag):
        net.load_state_dict(st["ema"])
    net.fc = torch.nn.Linear(net.fc.in_features, n_out)
    if st and extra.get(tag):
        net.load_state_dict(st["ema"])
    return net, bool(extra.get("frozen_bn"))


def import_onnx(onnx, run, member=None, width="m", large=False):
    """A checkpoint (run/ckpt.pt, EMA = weights) from an exported classifier, flower reader or
    character spotter; `member` picks one network of a file of several (-1: the last, the
    spotter of flowers.onnx). BatchNorm, folded by the export, is marked frozen."""
    model = make_classifier(width)
    load_onnx_into(model, onnx, torch.zeros(1, 3, FLW_H, FLW_W), member=member)
    os.makedirs(run, exist_ok=True)
    sd = model.state_dict()
    extra = {"width": width, "frozen_bn": True, "large": bool(large), "imported": onnx, "member": member}
    torch.save({"model": sd, "ema": sd, "step": 0, "extra": extra}, os.path.join(run, "ckpt.pt"))
    print(f"import: {onnx} (member {member}) -> {os.path.join(run, 'ckpt.pt')}")
    return os.path.join(run, "ckpt.pt")


def blend(init, other, weight, run):
    """A checkpoint (run/ckpt.pt, EMA = weights) whose weights lie between two of the same
    network: (1 - w) * init's + w * other's. With `init` the network a fine-tune started from and
    `other` the fine-tune, this keeps part of what the fine-tune learned while staying near the
    start, which read held-out designs better (WiSE-FT; stop 57 in model/CHANGELOG.md). BatchNorm
    statistics are blended too; a fine-tune with BatchNorm frozen leaves them as they were."""
    if not 0.0 <= weight <= 1.0:
        raise SystemExit(f"blend: weight {weight} is outside 0..1")
    one, two = (torch.load(p, map_location="cpu") for p in (init, other))
    for key, default in (("width", "s"), ("large", False), ("input_scale", 1.0)):
        if one.get("extra", {}).get(key, default) != two.get("extra", {}).get(key, default):
            raise SystemExit(f"blend: {init} and {other} differ in {key} (width, crop size or spotter scale); they are not the same network")
    ea, eb = one["ema"], two["ema"]
    bad = sorted(k for k in set(ea) | set(eb) if k not in ea or k not in eb or ea[k].shape != eb[k].shape)
    if bad:
        raise SystemExit(f"blend: {init} and {other} differ in {len(bad)} tensors ({', '.join(bad[:3])}); they are not the same network")
    sd = {k: torch.lerp(v.float(), eb[k].float(), weight).to(v.dtype) if v.is_floating_point() else v for k, v in ea.items()}
    os.makedirs(run, exist_ok=True)
    extra = dict(one.get("extra", {}), blend={"init": init, "with": other, "weight": weight})
    torch.save({"model": sd, "ema": sd, "step": 0, "extra": extra}, os.path.join(run, "ckpt.pt"))
    print(f"blend: {1 - weight:g} x {init} + {weight:g} x {other} -> {os.path.join(run, 'ckpt.pt')}")
    return os.path.join(run, "ckpt.pt")
