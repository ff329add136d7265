"""Several networks in one graph, and the flower networks' output graphs: what the exported
files compute around the trained networks (averages, the reader + spotter mix, the cascade parts)."""
import torch
import torch.nn.functional as F

from ..data.sets import CLASSES, CLS_INDEX
from .nets import FLW_H, FLW_W, Detector
from .onnx_weights import _conv_run_order, load_onnx_into, read_onnx

# The flower reader's outputs are the classifier's flower logits f1..f8 (sets.FLOWER_CODES).
F0 = CLS_INDEX["f1"]


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
        return F.pad(torch.log(p.clamp_min(1e-12)), (F0, len(CLASSES) - F0 - 8))


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


class SpotterEnsemble(torch.nn.Module):
    """Several character spotters in one graph (`export --spot-also`): the f1..f8 slice of the
    output is the mean of their eight-way log-softmaxes (a geometric mean, as flower_mix.py
    averages them; the other logits are 0, as ReaderEnsemble's)."""

    def __init__(self, nets):
        super().__init__()
        self.nets = torch.nn.ModuleList(nets)

    def forward(self, x):
        q = torch.stack([F.log_softmax(n(x)[:, F0:F0 + 8], dim=1) for n in self.nets]).mean(0)
        return F.pad(q, (F0, len(CLASSES) - F0 - 8))


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

    def __init__(self, reader, spotter, w, spot_scales=(1.0,)):
        super().__init__()
        self.reader, self.spotter, self.w = reader, spotter, float(w)
        self.sizes = [(round(FLW_H * k), round(FLW_W * k)) for k in spot_scales]

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
        return a * (1.0 - self.w) + b * (self.w / len(self.sizes))

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


class DetectorMean(torch.nn.Module):
    """Several detectors in one graph: the mean of their heatmaps and of their box maps (offsets
    and log sizes), so one detection pass reads the photo with all of them."""

    def __init__(self, nets):
        super().__init__()
        self.nets = torch.nn.ModuleList(nets)

    def forward(self, x):
        outs = [n(x) for n in self.nets]
        return torch.stack([o[0] for o in outs]).mean(0), torch.stack([o[1] for o in outs]).mean(0)


def onnx_detector(path, member=None):
    """A Detector with the weights of an exported detector file (`member`: one network of a file
    of several, as load_onnx_into counts them)."""
    net = Detector()
    load_onnx_into(net, path, torch.zeros(1, 3, 256, 256), member=member)
    return net.eval()


def detector_from_onnx(path):
    """The detector an exported file holds, as the pipeline runs it: one Detector, or the
    DetectorMean of the several a mean export holds (its Conv nodes a whole multiple of one
    network's)."""
    per = len(_conv_run_order(Detector(), torch.zeros(1, 3, 256, 256)))
    convs = len(read_onnx(path, gemms_too=True)[0])
    if convs % per or convs == 0:
        raise ValueError(f"{path}: {convs} Conv nodes are no whole number of detectors of {per}")
    if convs == per:
        return onnx_detector(path)
    return DetectorMean([onnx_detector(path, k) for k in range(convs // per)]).eval()
