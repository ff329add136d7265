"""ONNX files from checkpoints: what a recipe's `export` section names (kind, stages, file,
input size, opset), as onnxruntime-web runs them. Normalisation is inside the networks."""
import copy
import os

import torch
import torch.nn.functional as F

from ..models.checkpoints import head_net, net_from_ckpt, spotter_from_ckpt
from ..models.graphs import DetectorMean, FlowerLogits, FlowerLogSoftmax, FlowerMix, FlowerParts, ReaderEnsemble, onnx_detector
from ..models.nets import CLS_H, CLS_W, FLW_H, FLW_W

OPSET = 17
CROPS = {"input_names": ["crops"], "output_names": ["logits"], "dynamic_axes": {"crops": {0: "n"}, "logits": {0: "n"}}}
# The classifier's two outputs: `logits` first (the pipeline reads output 0), then `embedding`,
# the pooled penultimate features the tile-set profile learns from (src/vision/profile).
CROPS_EMBED = {"input_names": ["crops"], "output_names": ["logits", "embedding"],
               "dynamic_axes": {"crops": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}}}


class WithEmbedding(torch.nn.Module):
    """A Classifier that also returns its globally pooled features before dropout and the final
    linear layer (N, C): the same logits, computed by the same layers."""

    def __init__(self, net):
        super().__init__()
        if not (hasattr(net, "net") and hasattr(net, "fc") and hasattr(net, "drop")):
            raise SystemExit("export: an embedding output needs a Classifier (net, drop, fc)")
        self.inner = net

    def forward(self, x):
        f = self.inner.net((x - 0.5) * 4.0).mean(dim=(2, 3))
        return self.inner.fc(self.inner.drop(f)), f


def export_det(model, path, size=(512, 512), opset=OPSET):
    """A detector (detector.onnx, finder.onnx): `image` (n, 3, H, W) -> `heatmap`, `box`."""
    model = copy.deepcopy(model).eval()
    torch.onnx.export(model, torch.zeros(1, 3, *size), path, opset_version=opset, input_names=["image"],
                      output_names=["heatmap", "box"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "heatmap": {0: "n", 2: "gh", 3: "gw"},
                                    "box": {0: "n", 2: "gh", 3: "gw"}})


def export_cls(model, path, size=None, large=False, opset=OPSET):
    """A crop network (classifier, verifier): `crops` (n, 3, 64, 48), or (n, 3, 96, 72) when
    trained on large crops (the pipeline reads the size from the file), -> `logits`."""
    size = size or ((FLW_H, FLW_W) if large else (CLS_H, CLS_W))
    torch.onnx.export(copy.deepcopy(model).eval(), torch.zeros(1, 3, *size), path, opset_version=opset, **CROPS)


def export_cls_embed(model, path, size=None, large=False, opset=OPSET):
    """A classifier as export_cls, with a second output `embedding` (N, C): WithEmbedding."""
    size = size or ((FLW_H, FLW_W) if large else (CLS_H, CLS_W))
    net = WithEmbedding(copy.deepcopy(model)).eval()
    torch.onnx.export(net, torch.zeros(1, 3, *size), path, opset_version=opset, **CROPS_EMBED)


def export_flw(model, path, spotter=None, spot_weight=0.5, spot_scales=(1.0,), opset=OPSET):
    """A flower reader's f1..f8 logits, or with `spotter` the FlowerMix of both (one graph)."""
    model = (FlowerMix(copy.deepcopy(model), copy.deepcopy(spotter), spot_weight, spot_scales) if spotter is not None
             else FlowerLogits(copy.deepcopy(model))).eval()
    torch.onnx.export(model, torch.zeros(1, 3, FLW_H, FLW_W), path, opset_version=opset, **CROPS)


def export_flw_parts(reader, spotter, path, spot_weight, spot_scales, opset=OPSET):
    """flowers.onnx, the first file of the flower cascade: FlowerParts, 17 values a crop (the
    reader's and the spotter's f1..f8 log-softmaxes and the spotter's weight)."""
    parts = FlowerParts(copy.deepcopy(reader), copy.deepcopy(spotter), spot_weight, spot_scales).eval()
    torch.onnx.export(parts, torch.zeros(1, 3, FLW_H, FLW_W), path, opset_version=opset, **CROPS)
    return parts


def export_flw_second(reader, path, opset=OPSET):
    """flowers2.onnx, the second reader of the flower cascade: its f1..f8 log-softmax."""
    rest = FlowerLogSoftmax(copy.deepcopy(reader)).eval()
    torch.onnx.export(rest, torch.zeros(1, 3, FLW_H, FLW_W), path, opset_version=opset, **CROPS)
    return rest


def check_flw_cascade(parts, rest, first, second, spotter, spot_weight, spot_scales):
    """The two cascade files' graphs, mixed as the pipeline mixes them (flowerProbs), give what
    one graph of both readers (FlowerMix of their ReaderEnsemble) gives, to 1e-4."""
    whole = FlowerMix(ReaderEnsemble([copy.deepcopy(first), copy.deepcopy(second)]), copy.deepcopy(spotter), spot_weight, spot_scales).eval()
    xs = torch.rand(4, 3, FLW_H, FLW_W)
    with torch.no_grad():
        p, q = parts(xs), rest(xs)
        w = p[:, 16:17]
        mixed = (1 - w) * torch.log((p[:, :8].exp() + q.exp()) / 2) + w * p[:, 8:16]
        diff = (F.log_softmax(mixed, dim=1) - F.log_softmax(whole(xs), dim=1)).abs().max().item()
    assert diff < 1e-4, f"the flower cascade differs from the readers in one graph by {diff}"


def export_file(kind, ckpts, path, size=None, opset=OPSET, spot_weight=0.4, spot_scales=(1.0,), mean_with=()):
    """The file of a recipe's export: kind detector | classifier | verifier | flower-parts |
    flower-reader, from the checkpoints `ckpts` (one; flower-parts: the reader's, the spotter's).
    A detector with `mean_with` ([(ONNX path, member or None)]) is the mean of its network and
    those (DetectorMean), its own network first."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if kind == "detector":
        net = net_from_ckpt(ckpts[0], det=True)[0]
        if mean_with:
            net = DetectorMean([net.eval()] + [onnx_detector(f, m) for f, m in mean_with])
        export_det(net, path, size=tuple(size or (512, 512)), opset=opset)
    elif kind == "classifier":
        net, state = net_from_ckpt(ckpts[0])
        export_cls_embed(net, path, size=size, large=bool(state.get("extra", {}).get("large")), opset=opset)
    elif kind == "verifier":
        net, _ = head_net(None, 2, "verifier")
        net.load_state_dict(torch.load(ckpts[0], map_location="cpu")["ema"])
        export_cls(net, path, size=size, opset=opset)
    elif kind == "flower-parts":
        export_flw_parts(net_from_ckpt(ckpts[0])[0], spotter_from_ckpt(ckpts[1])[0], path, spot_weight, tuple(spot_scales), opset=opset)
    elif kind == "flower-reader":
        export_flw_second(net_from_ckpt(ckpts[0])[0], path, opset=opset)
    else:
        raise SystemExit(f"export: unknown kind {kind}")
    print(f"exported {', '.join(ckpts)} -> {path}")
    return path


def stage_file(mode, ckpt, run):
    """A training stage's own export into its run folder (detector.onnx, classifier.onnx or
    flowers.onnx), which a later stage may start from (`init: {"stage": NAME, "file": ...}`)."""
    if mode == "det":
        path = os.path.join(run, "detector.onnx")
        export_det(net_from_ckpt(ckpt, det=True)[0], path)
    elif mode == "flw":
        path = os.path.join(run, "flowers.onnx")
        export_flw(net_from_ckpt(ckpt)[0], path)
    else:
        net, state = net_from_ckpt(ckpt)
        path = os.path.join(run, "classifier.onnx")
        export_cls(net, path, large=bool(state.get("extra", {}).get("large")))
    return path


