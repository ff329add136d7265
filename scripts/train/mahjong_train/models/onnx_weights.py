"""Read the weights of one of our exported ONNX models back into its PyTorch network.

Training checkpoints (runs/, git-ignored) do not survive a fresh checkout; the exported models in
model/ do. This module lets a new run start from them (a recipe stage's `init`: `{"onnx": ...}`).

It reads the ONNX protobuf with a small wire-format reader (Debian's python3-torch has no
`onnx` package), takes the Conv nodes in graph order with their weight and bias initialisers,
and matches them to the network's Conv2d modules in the order they run (Gemm nodes likewise to
its Linear modules). torch.onnx.export
folded each BatchNorm into the convolution before it, so such a convolution gets the folded
weight and its BatchNorm becomes an affine layer that adds the folded bias (running mean 0,
running variance 1 - eps, scale 1). Train such a network with its BatchNorm layers in eval
mode (`freeze_bn`), so that batch statistics do not replace that identity.
"""
import struct

import numpy as np
import torch
import torch.nn as nn


def _varint(b, i):
    v = 0
    shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        if c < 0x80:
            return v, i
        shift += 7


def _fields(b):
    """(field number, wire type, value) of one protobuf message; LEN values as bytes."""
    i = 0
    n = len(b)
    while i < n:
        key, i = _varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(b, i)
        elif wt == 1:
            v = b[i:i + 8]
            i += 8
        elif wt == 2:
            ln, i = _varint(b, i)
            v = b[i:i + ln]
            i += ln
        elif wt == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise ValueError(f"onnx: unsupported protobuf wire type {wt}")
        yield f, wt, v


def _tensor(b):
    dims, name, raw, floats, dtype = [], "", None, [], 1
    for f, wt, v in _fields(b):
        if f == 1:
            if wt == 2:  # packed
                j = 0
                while j < len(v):
                    d, j = _varint(v, j)
                    dims.append(d)
            else:
                dims.append(v)
        elif f == 2:
            dtype = v
        elif f == 4:
            floats.extend(struct.unpack(f"<{len(v) // 4}f", v) if wt == 2 else [struct.unpack("<f", v)[0]])
        elif f == 8:
            name = v.decode()
        elif f == 9:
            raw = v
    if dtype != 1:
        return name, None  # not float32 (shape constants etc.)
    arr = np.frombuffer(raw, dtype="<f4").copy() if raw is not None else np.array(floats, np.float32)
    return name, arr.reshape(dims) if dims else arr


def read_onnx(path, gemms_too=False):
    """(conv nodes as [weight name, bias name or None] in graph order, {name: float32 array}).
    With gemms_too=True also the Gemm nodes, as a third element of the same form. A weight that
    reaches a node through Identity nodes (a network run twice in one graph, as the spotter of a
    two-scale flowers.onnx, shares its first run's weights that way) is named by its initialiser."""
    with open(path, "rb") as fh:
        model = fh.read()
    graph = next(v for f, wt, v in _fields(model) if f == 7)
    convs, gemms, inits, alias = [], [], {}, {}
    for f, wt, v in _fields(graph):
        if f == 1:
            inputs, outputs, op = [], [], ""
            for g, _, w in _fields(v):
                if g == 1:
                    inputs.append(w.decode())
                elif g == 2:
                    outputs.append(w.decode())
                elif g == 4:
                    op = w.decode()
            if op == "Conv":
                convs.append([inputs[1], inputs[2] if len(inputs) > 2 else None])
            elif op == "Gemm":
                gemms.append([inputs[1], inputs[2] if len(inputs) > 2 else None])
            elif op == "Identity" and inputs and outputs:
                alias[outputs[0]] = inputs[0]
        elif f == 5:
            name, arr = _tensor(v)
            if arr is not None:
                inits[name] = arr

    def source(name):
        seen = 0
        while name is not None and name not in inits and name in alias and seen < 64:
            name, seen = alias[name], seen + 1
        return name

    convs = [[source(w), source(b)] for w, b in convs]
    gemms = [[source(w), source(b)] for w, b in gemms]
    return (convs, inits, gemms) if gemms_too else (convs, inits)


def _conv_run_order(model, example):
    order = []
    hooks = [m.register_forward_hook(lambda mod, i, o: order.append(mod)) for m in model.modules() if isinstance(m, nn.Conv2d)]
    was = model.training
    model.eval()
    with torch.no_grad():
        model(example)
    model.train(was)
    for h in hooks:
        h.remove()
    return order


@torch.no_grad()
def load_onnx_into(model, path, example, member=None):
    """Copy the ONNX weights into `model` (see the module docstring). Returns the number of convolutions set.
    member: for a file holding several networks one after the other (an averaged ensemble,
    `train.py export --cls-also` / `--flw-also`, or readers followed by the character spotter in
    flowers.onnx), the index of the one to load, counted in copies of `model`'s network; -1 is
    the last network of the file (the spotter). Shapes are checked as for a whole file."""
    convs, inits, gemms = read_onnx(path, gemms_too=True)
    order = _conv_run_order(model, example)
    linears = [m for m in model.modules() if isinstance(m, nn.Linear)]
    if member is not None:
        nc, ng = len(order), len(linears)
        if member < 0:
            c0, g0 = len(convs) - nc, len(gemms) - ng
        else:
            c0, g0 = member * nc, member * ng
        if c0 < 0 or g0 < 0 or c0 + nc > len(convs) or g0 + ng > len(gemms):
            raise ValueError(f"{path}: {len(convs)} Conv and {len(gemms)} Gemm nodes hold no network {member} of {nc} convolutions and {ng} linear layers")
        convs, gemms = convs[c0:c0 + nc], gemms[g0:g0 + ng]
    if len(linears) != len(gemms):
        raise ValueError(f"{path}: {len(gemms)} Gemm nodes, but the network has {len(linears)} linear layers")
    for lin, (wn, bn_name) in zip(linears, gemms):
        w = torch.from_numpy(inits[wn])
        if tuple(w.shape) != tuple(lin.weight.shape):
            raise ValueError(f"{path}: weight {wn} has shape {tuple(w.shape)}, the network expects {tuple(lin.weight.shape)}")
        lin.weight.copy_(w)
        if lin.bias is not None:
            lin.bias.copy_(torch.from_numpy(inits[bn_name]) if bn_name else torch.zeros(lin.out_features))
    if len(order) != len(convs):
        raise ValueError(f"{path}: {len(convs)} Conv nodes, but the network runs {len(order)} convolutions")
    bn_after = {}
    mods = list(model.modules())
    for a, b in zip(mods, mods[1:]):
        if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
            bn_after[a] = b
    for conv, (wn, bn_name) in zip(order, convs):
        w = torch.from_numpy(inits[wn])
        if tuple(w.shape) != tuple(conv.weight.shape):
            raise ValueError(f"{path}: weight {wn} has shape {tuple(w.shape)}, the network expects {tuple(conv.weight.shape)}")
        conv.weight.copy_(w)
        bias = torch.from_numpy(inits[bn_name]) if bn_name else torch.zeros(conv.out_channels)
        if conv.bias is not None:
            conv.bias.copy_(bias)
        else:
            bn = bn_after.get(conv)
            if bn is None:
                raise ValueError(f"{path}: convolution without bias and without a BatchNorm after it")
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
    return len(order)


def freeze_bn(model):
    """BatchNorm layers to eval mode (fixed statistics, learnable scale and shift)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
