"""Training batches: affine sampling of scenes (detector targets) and of tile patches (crops)."""
import math

import numpy as np
import torch
import torch.nn.functional as F

from .augment import blur_aug, cut_aug, ink_aug, lowres_aug, photometric, sharpen_aug, shape_aug
from .sets import MIN_VISIBLE, PATCH_CTX

def rand_affine(n, gen, out_size, in_size, scale=(0.7, 1.45), rot=20.0, p_rot90=0.1, p_flip=0.5):
    """Per-sample affine (2x3, output pixel -> input pixel) plus rot90 flags."""
    out = []
    rot90 = []
    for _ in range(n):
        s = math.exp(torch.empty(1).uniform_(math.log(scale[0]), math.log(scale[1]), generator=gen).item())
        a = math.radians(torch.empty(1).uniform_(-rot, rot, generator=gen).item())
        r90 = torch.rand(1, generator=gen).item() < p_rot90
        if r90:
            a += math.pi / 2 * (1 if torch.rand(1, generator=gen).item() < 0.5 else -1)
        flip = torch.rand(1, generator=gen).item() < p_flip
        # input centre of the crop: anywhere such that the crop overlaps the image
        cx = torch.empty(1).uniform_(0.25 * in_size, 0.75 * in_size, generator=gen).item()
        cy = torch.empty(1).uniform_(0.25 * in_size, 0.75 * in_size, generator=gen).item()
        ca, sa = math.cos(a) / s, math.sin(a) / s
        fx = -1.0 if flip else 1.0
        # in = R/s * diag(fx,1) * (out - oc) + c
        M = np.array([[ca * fx, -sa, 0.0], [sa * fx, ca, 0.0]], np.float64)
        oc = out_size / 2.0
        M[:, 2] = np.array([cx, cy]) - M[:, :2] @ np.array([oc, oc])
        out.append(M)
        rot90.append(r90)
    return np.stack(out), rot90


def warp_batch(imgs_u8, M, out_h, out_w, fill=0.5):
    """imgs_u8: (N,H,W,3) uint8 numpy; M: (N,2,3) output px -> input px. Returns float (N,3,oh,ow)."""
    x = torch.from_numpy(np.ascontiguousarray(imgs_u8)).permute(0, 3, 1, 2).float() / 255.0
    N, _, H, W = x.shape
    # normalised coords (align_corners=False): u = (2*px + 1)/W - 1
    A = torch.zeros(N, 2, 3, dtype=torch.float64)
    Mt = torch.from_numpy(M)
    # out px = ((u+1)*ow - 1)/2 ; in px = M @ [out px,1]; in u = (2*in px + 1)/W - 1
    # compose: in_u = Sin * M * Sout^-1 * out_u
    Sout_inv = torch.tensor([[out_w / 2.0, 0, (out_w - 1) / 2.0], [0, out_h / 2.0, (out_h - 1) / 2.0], [0, 0, 1]], dtype=torch.float64)
    Sin = torch.tensor([[2.0 / W, 0, 1.0 / W - 1], [0, 2.0 / H, 1.0 / H - 1], [0, 0, 1]], dtype=torch.float64)
    M3 = torch.cat([Mt, torch.tensor([[[0, 0, 1.0]]], dtype=torch.float64).expand(N, 1, 3)], 1)
    A = (Sin @ M3 @ Sout_inv)[:, :2].float()
    grid = F.affine_grid(A, (N, 3, out_h, out_w), align_corners=False)
    # sampling (x - fill) with zero padding == sampling x with `fill` outside
    y = F.grid_sample(x.sub_(fill), grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    return y.add_(fill)



def det_targets(quads_out, side, n_out, stride=4):
    """quads_out: list per image of (K,4,2) quads in output (network input) pixels.
    Returns hm (2,n,n), box (4,n,n), mask (n,n)."""
    hm = np.zeros((2, n_out, n_out), np.float32)
    box = np.zeros((4, n_out, n_out), np.float32)
    mask = np.zeros((n_out, n_out), np.float32)
    S = n_out * stride
    for q, sw in zip(quads_out, side):
        x0, y0 = q[:, 0].min(), q[:, 1].min()
        x1, y1 = q[:, 0].max(), q[:, 1].max()
        w, h = x1 - x0, y1 - y0
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, S), min(y1, S)
        if cx1 <= cx0 or cy1 <= cy0 or w < 4 or h < 4:
            continue
        vis = (cx1 - cx0) * (cy1 - cy0) / (w * h)
        if vis < MIN_VISIBLE:
            continue
        x0, y0, x1, y1 = cx0, cy0, cx1, cy1
        w, h = x1 - x0, y1 - y0
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < n_out and 0 <= iy < n_out):
            continue
        sx = max(0.7, w / stride / 6.0)
        sy = max(0.7, h / stride / 6.0)
        rx, ry = int(3 * sx) + 1, int(3 * sy) + 1
        xs = np.arange(max(0, ix - rx), min(n_out, ix + rx + 1))
        ys = np.arange(max(0, iy - ry), min(n_out, iy + ry + 1))
        gx = np.exp(-((xs + 0.5 - cx) ** 2) / (2 * sx * sx))
        gy = np.exp(-((ys + 0.5 - cy) ** 2) / (2 * sy * sy))
        g = gy[:, None] * gx[None, :]
        ch = 1 if sw else 0
        sub = hm[ch, ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1]
        np.maximum(sub, g, out=sub)
        hm[ch, iy, ix] = 1.0
        box[:, iy, ix] = [cx - ix, cy - iy, math.log(w / stride), math.log(h / stride)]
        mask[iy, ix] = 1.0
    return hm, box, mask


def det_batch(images, quads, sideways, idx, gen, out_size=320, aug=True):
    n = len(idx)
    S = images.shape[1]
    if aug:
        M, rot90 = rand_affine(n, gen, out_size, S)
    else:
        sc = S / out_size
        M = np.tile(np.array([[[sc, 0, 0], [0, sc, 0]]], np.float64), (n, 1, 1))
        rot90 = [False] * n
    x = warp_batch(images[idx], M, out_size, out_size)
    if aug:
        x = photometric(x, gen)
    n_out = out_size // 4
    hms, boxes, masks = [], [], []
    for j, i in enumerate(idx):
        q = quads[i]
        if len(q):
            A = M[j][:, :2]
            Ainv = np.linalg.inv(A)
            qo = (q.reshape(-1, 2) - M[j][:, 2]) @ Ainv.T
            qo = qo.reshape(len(q), -1, 2)
        else:
            qo = q
        sw = sideways[i] ^ rot90[j] if len(q) else sideways[i]
        hm, bx, mk = det_targets(qo, sw, n_out)
        hms.append(hm)
        boxes.append(bx)
        masks.append(mk)
    return x, torch.from_numpy(np.stack(hms)), torch.from_numpy(np.stack(boxes)), torch.from_numpy(np.stack(masks))


# ----------------------------------------------------------------------------
# Classifier data


def cls_batch(patches, labels, sideways, idx, gen, out_h=64, out_w=48, aug=True, margin=1.08, grey=0.08, shuffle=0.0, shape=0.0, ink=0.0, lowres=0.0, sharpen=0.0, cut=0.0, blur=0.0):
    """Affine-sample a (jittered) tile box from each context patch into out_h x out_w.
    Sideways tiles are stood up (rotated +-90 deg); 180 deg rotation at random."""
    n = len(idx)
    P = patches.shape[1]
    Ms = []
    for j, i in enumerate(idx):
        # tile box in patch px: centred, half-size P/(2*ctx)
        half = P / (2 * PATCH_CTX) * margin
        hx, hy = half, half
        cx = cy = P / 2
        a = 0.0
        if sideways[i]:
            a = math.pi / 2 * (1 if torch.rand(1, generator=gen).item() < 0.5 else -1)
        if aug:
            if torch.rand(1, generator=gen).item() < 0.5:
                a += math.pi
            a += math.radians(torch.empty(1).uniform_(-12, 12, generator=gen).item())
            sx = torch.empty(1).uniform_(0.85, 1.18, generator=gen).item()
            sy = sx * torch.empty(1).uniform_(0.9, 1.1, generator=gen).item()
            cx += torch.empty(1).uniform_(-0.1, 0.1, generator=gen).item() * 2 * half
            cy += torch.empty(1).uniform_(-0.1, 0.1, generator=gen).item() * 2 * half
        else:
            sx = sy = 1.0
        # output px (u in [0,ow], v in [0,oh]) -> unit square [-1,1] -> rotate -> patch px
        ca, sa = math.cos(a), math.sin(a)
        # unit coords: ux = (u - ow/2)/(ow/2), uy = (v - oh/2)/(oh/2)
        # box-local (pre-rotation) in patch px: bx = ux*hx*sx, by = uy*hy*sy (for the stood-up tile)
        # sideways tiles: the patch box is landscape; rotating the sampling grid by 90 deg maps
        # the output's long (vertical) axis onto the patch's horizontal axis.
        L = np.array([[hx * sx / (out_w / 2), 0], [0, hy * sy / (out_h / 2)]])
        R = np.array([[ca, -sa], [sa, ca]])
        A = R @ L
        t = np.array([cx, cy]) - A @ np.array([out_w / 2, out_h / 2])
        Ms.append(np.concatenate([A, t[:, None]], 1))
    x = warp_batch(patches[idx], np.stack(Ms), out_h, out_w)
    if aug and shape > 0:
        x = shape_aug(x, labels[idx], gen, p=shape)
    if aug and ink > 0:
        x = ink_aug(x, gen, p=ink)
    if aug and lowres > 0:
        x = lowres_aug(x, gen, p=lowres)
    if aug and blur > 0:
        # before the trainer's noise: a blurred photo's noise is not blurred
        x = blur_aug(x, gen, p=blur)
    if aug:
        x = photometric(x, gen, grey=grey, shuffle=shuffle)
    if aug and sharpen > 0:
        # after the blur and noise, as a phone sharpens what its optics and sensor gave
        x = sharpen_aug(x, gen, p=sharpen)
    if aug and cut > 0:
        # last: the pipeline repeats the photo's final pixels, noise, blur and all
        x = cut_aug(x, gen, p=cut)
    return x, torch.from_numpy(labels[idx])
