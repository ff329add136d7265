"""Self-checks of the crop augmentations (run by every smoke run, `npm run train:smoke`)."""
import torch

from .augment import _motion, blur_aug, cut_aug, ink_aug, lowres_aug, sharpen_aug

CLS_H, CLS_W = 64, 48   # the classifier's crop (models.nets), as data sits below models
FLW_H, FLW_W = 96, 72   # the flower reader's


def _check_lowres():
    """lowres_aug keeps shapes and range, returns the crops as they are with p=0, leaves a
    flat crop flat, and takes the fine detail out of a crop: a one-pixel checkerboard averages
    to grey."""
    gen = torch.Generator().manual_seed(2)
    assert lowres_aug(torch.rand(2, 3, FLW_H, FLW_W), gen, p=0.0).shape == (2, 3, FLW_H, FLW_W)
    x = torch.rand(4, 3, FLW_H, FLW_W)
    assert lowres_aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"
    flat = torch.full((4, 3, CLS_H, CLS_W), 0.7)
    assert (lowres_aug(flat, gen, p=1.0) - 0.7).abs().max() < 1e-5, "a flat crop changed"
    yy, xx = torch.meshgrid(torch.arange(FLW_H), torch.arange(FLW_W), indexing="ij")
    board = ((yy + xx) % 2).float().expand(8, 3, FLW_H, FLW_W).contiguous()
    y = lowres_aug(board, gen, p=1.0)
    assert y.shape == board.shape and 0 <= y.min() and y.max() <= 1
    assert (y - 0.5).abs().mean() < 0.1, "the checkerboard kept its detail"


def _check_cut():
    """cut_aug returns the crops as they are with p=0, and with p=1 each crop has one side,
    at least the margin and 5 % of the tile deep and at most 58 % of the crop, whose rows or
    columns all repeat the first one inside, while the rest of the crop is untouched."""
    gen = torch.Generator().manual_seed(4)
    x = torch.rand(16, 3, CLS_H, CLS_W)
    assert cut_aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"
    y = cut_aug(x, gen, p=1.0)
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


def _check_sharpen():
    """sharpen_aug keeps shapes and range, returns the crops as they are with p=0, leaves a
    flat crop flat, and puts halos round a stroke: the face beside a dark bar gets lighter on
    every crop, and the bar darker at its edge on most (a third are smoothed first)."""
    gen = _check_aug_basics(sharpen_aug, 3)
    bar = torch.full((64, 3, CLS_H, CLS_W), 0.6)
    bar[:, :, :, 20:28] = 0.3
    y = sharpen_aug(bar, gen, p=1.0)
    assert y.shape == bar.shape and 0 <= y.min() and y.max() <= 1
    assert (y[:, :, :, 18] > 0.6 + 1e-3).all(), "no light halo beside the bar"
    assert (y[:, 0, :, 20] < 0.3 - 1e-3).float().mean() > 0.6, "the bar's edge did not darken"


def _check_blur():
    """blur_aug keeps shapes and range, returns the crops as they are with p=0, leaves a flat
    crop flat, and spreads a thin dark bar: its centre lightens and its neighbourhood darkens; a
    horizontal motion streak spreads a vertical bar sideways and leaves a horizontal one alone."""
    gen = _check_aug_basics(blur_aug, 5)
    bar = torch.full((16, 3, CLS_H, CLS_W), 0.8)
    bar[:, :, :, 22:24] = 0.1
    y = blur_aug(bar, gen, p=1.0)
    assert y.shape == bar.shape and 0 <= y.min() and y.max() <= 1
    assert (y[:, 0, 30, 22] > 0.1 + 0.05).all(), "the bar did not lighten"
    assert (y[:, 0, 30, 20] < 0.8 - 0.02).float().mean() > 0.5, "the bar did not spread"
    v = _motion(bar[:1], 7.0, 0.0)
    assert v[0, 0, 30, 20] < 0.8 - 0.05 and abs(float(v[0, 0, 30, 12]) - 0.8) < 1e-5, "a horizontal streak did not spread the bar sideways only"
    h = torch.full((1, 3, CLS_H, CLS_W), 0.8)
    h[:, :, 30:32, :] = 0.1
    assert (_motion(h, 7.0, 0.0) - h).abs().max() < 1e-5, "a horizontal streak changed a horizontal bar"


def _check_ink():
    """ink_aug keeps shapes and range, leaves a blank face blank, and prints a coloured
    stroke in one ink (all three channels equal for the near-black ink)."""
    gen = torch.Generator().manual_seed(1)
    x = torch.full((64, 3, CLS_H, CLS_W), 0.9)
    x[:, 0, 20:40, 20:28] = 0.2  # a cyan stroke: only the red channel is dark
    y = ink_aug(x, gen, p=1.0, outline=0.0)
    assert y.shape == x.shape and 0 <= y.min() and y.max() <= 1
    assert (y[:, :, :10, :10] - x[:, :, :10, :10]).abs().max() < 1e-5, "the blank face changed"
    stroke = y[:, :, 25:35, 22:26].mean((2, 3))  # (64, 3)
    assert (stroke.max(1).values < 0.5).all(), "the stroke is not dark in every channel"
    assert ink_aug(x, gen, p=0.0) is x, "with p=0 the crops are returned as they are"




def check_augmentations():
    for check in (_check_ink, _check_lowres, _check_cut, _check_sharpen, _check_blur):
        check()
