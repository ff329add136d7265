"""Smoke-run checks (`npm run train:smoke`): the package's import layers, each export read
back against its checkpoint, and the weight operations (import, blend, the cascades, budgets)."""
import argparse
import ast
import os
import tempfile
import time

import torch
import torch.nn.functional as F

from .data.checks import check_augmentations
from .export.onnx import check_flw_cascade, export_cls, export_flw_parts, export_flw_second
from .loops.common import Budget
from .models.checkpoints import blend, head_net, import_onnx, net_from_ckpt
from .models.graphs import F0, ClassifierEnsemble, ScaledSpotter
from .models.nets import CLS_H, CLS_W, FLW_H, FLW_W, Detector, make_classifier
from .models.onnx_weights import load_onnx_into

PACKAGE = os.path.dirname(os.path.abspath(__file__))
# import layers, lowest first: a module imports only from its own layer or the ones below
LAYERS = ["data", "models", "loops", "export", "", "tools"]


def _layer(module):
    """module: dotted path inside the package ("data.sets", "recipe")."""
    head = module.split(".")[0]
    return LAYERS.index(head) if head in LAYERS else LAYERS.index("")


def check_layers():
    """Every module's imports of the package go to its own layer or below, and none in a circle."""
    edges = {}
    for dirpath, _, files in os.walk(PACKAGE):
        for name in files:
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), PACKAGE)[:-3].replace(os.sep, ".")
            mod = rel[:-9] if rel.endswith(".__init__") else rel
            pkg = mod.split(".")[:-1] if not rel.endswith("__init__") else mod.split(".")
            with open(os.path.join(dirpath, name)) as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level:
                    base = pkg[:len(pkg) - node.level + 1] if node.level > 1 else pkg
                    target = ".".join(base + ([node.module] if node.module else []))
                    edges.setdefault(mod, set()).add(target)
                    assert _layer(target) <= _layer(mod), f"{mod} imports {target}, a layer above it"
    state = {}

    def visit(m, path):
        assert state.get(m) != 1, f"import circle: {' -> '.join(path + [m])}"
        if state.get(m) == 2:
            return
        state[m] = 1
        for t in edges.get(m, ()):
            visit(t, path + [m])
        state[m] = 2
    for m in list(edges):
        visit(m, [])


def check_export(kind, ckpts, path):
    """The exported file read back (onnx_weights) computes what its checkpoint's network does."""
    if kind == "detector":
        ref, back, x = net_from_ckpt(ckpts[0], det=True)[0], Detector(), torch.rand(1, 3, 128, 96)
    elif kind == "verifier":
        ref, back, x = head_net(ckpts[0], 2, "verifier")[0], head_net(None, 2, "verifier")[0], torch.rand(3, 3, CLS_H, CLS_W)
    else:
        ref, state = net_from_ckpt(ckpts[0])
        back = make_classifier(state["extra"].get("width", "s"))
        x = torch.rand(3, 3, *((CLS_H, CLS_W) if kind == "classifier" and not state["extra"].get("large") else (FLW_H, FLW_W)))
    # a flower file holds the reader and more; a detector may be a mean of several (its own first)
    load_onnx_into(back, path, x[:1], member=0 if kind.startswith("flower") or kind == "detector" else None)
    ref.eval()
    back.eval()
    with torch.no_grad():
        a, b = ref(x), back(x)
    pairs = zip(a, b) if isinstance(a, tuple) else [(a[:, F0:F0 + 8], b[:, F0:F0 + 8])] if kind.startswith("flower") else [(a, b)]
    diff = max((u - v).abs().max().item() for u, v in pairs)
    assert diff < 1e-4, f"{path} read back differs from {ckpts[0]} by {diff}"


def _random_m(seed, out, name):
    torch.manual_seed(seed)
    net = make_classifier("m").eval()
    with torch.no_grad():
        for prm in net.parameters():
            prm.add_(torch.randn_like(prm) * 0.05)
    os.makedirs(os.path.join(out, name), exist_ok=True)
    sd = net.state_dict()
    torch.save({"model": sd, "ema": sd, "step": 0, "extra": {"width": "m"}}, os.path.join(out, name, "ckpt.pt"))
    return net, os.path.join(out, name, "ckpt.pt")


def check_weight_ops(out):
    """Import of each network of a file of two (and -1, the last); blend weights; the classifier
    and flower cascades; the scaled spotter; the wall-clock budget's --extend-min."""
    (one, c1), (two, c2) = _random_m(5, out, "m1"), _random_m(6, out, "m2")
    both = os.path.join(out, "both.onnx")
    export_cls(ClassifierEnsemble([one, two]), both)
    x = torch.rand(3, 3, CLS_H, CLS_W)
    for member, net in ((0, one), (1, two), (-1, two)):
        got = net_from_ckpt(import_onnx(both, os.path.join(out, f"imported{member}"), member))[0].eval()
        with torch.no_grad():
            assert (got(x) - net(x)).abs().max().item() < 1e-4, f"import member {member}"
    try:
        import_onnx(both, os.path.join(out, "imported2"), 2)
        raise AssertionError("import accepted member 2 of a file of two networks")
    except ValueError:
        pass
    for w in (0.0, 0.25):
        got = torch.load(blend(c1, c2, w, os.path.join(out, f"blend{w}")), map_location="cpu")["ema"]
        a, b = one.state_dict(), two.state_dict()
        for k, v in got.items():
            want = a[k] if not v.is_floating_point() else (1 - w) * a[k] + w * b[k]
            assert torch.allclose(v, want, atol=1e-6) and (w or torch.equal(v, a[k])), f"blend {w}: {k}"
    spot = make_classifier("spot").eval()
    parts = export_flw_parts(one, spot, os.path.join(out, "flowers.onnx"), 0.4, (1.0, 0.75))
    rest = export_flw_second(two, os.path.join(out, "flowers2.onnx"))
    check_flw_cascade(parts, rest, one, two, spot, 0.4, (1.0, 0.75))
    big, xb = ScaledSpotter(spot, 1.5).eval(), torch.rand(2, 3, FLW_H, FLW_W)
    with torch.no_grad():
        want = spot(F.interpolate(xb, size=(144, 108), mode="bilinear", align_corners=False))
        assert (big(xb) - want).abs().max().item() < 1e-5, "the scaled spotter"
    past = {"deadline": time.time() - 1.0, "total": 50, "extended_min": 0.0}
    args = lambda ext: argparse.Namespace(steps=1000, deadline_min=None, extend_min=ext)  # noqa: E731
    assert Budget(args(None), dict(past)).done(50), "a run at its old total and deadline goes on"
    b = Budget(args(10.0), dict(past))
    assert not b.done(50) and b.deadline > time.time() + 9 * 60, "--extend-min did not let the run go on"
    assert Budget(args(10.0), b.state()).deadline == b.deadline, "--extend-min moved the deadline twice"


def self_checks():
    t = time.time()
    check_layers()
    check_augmentations()
    with tempfile.TemporaryDirectory(prefix="train-checks-") as out:
        check_weight_ops(out)
    print(f"checks: layers, augmentations, weight operations ok in {time.time() - t:.0f}s")
