"""Training sets on disk: the class list, label quads, context patches, and the growing readers.

Scene folders (from scripts/synth/generate.ts) hold images/NNNNNN.jpg and
labels/NNNNNN.json = {"width","height","tiles":[{"code","box","quad",
"sideways","upside_down",...}]}. Single-tile folders (--tiles) hold
tiles/<code>/NNNNNN.jpg (+ labels.csv).

Everything is decoded once into memory as uint8 numpy arrays (GrowingScenes /
GrowingTiles below); sets still being generated are picked up as they grow.
Bottom layer of the package: imports nothing from it.
"""
import json
import os

import numpy as np
from PIL import Image
import torch

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # scripts/train/mahjong_train
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DATA = os.path.join(ROOT, "training-data")
CLASSES = [f"{i}m" for i in range(1, 10)] + [f"{i}p" for i in range(1, 10)] + \
    [f"{i}s" for i in range(1, 10)] + [f"{i}z" for i in range(1, 8)] + \
    [f"f{i}" for i in range(1, 9)] + ["back"]
CLS_INDEX = {c: i for i, c in enumerate(CLASSES)}

DET_CACHE_SIZE = 512      # scenes are letterboxed to this square for detector training
# A tile cut by the edge of a training crop is a target when at least this much of its box is
# inside, as the generator labels tiles cut by the photo's edge (scripts/synth/scene.ts
# MIN_VISIBLE). Up to detector phase 3 this was 0.6, so tiles 50-60 % inside were negatives and
# the detector missed a third of the tiles cut by the photo's edge in val-holdout.
MIN_VISIBLE = 0.5
PATCH = 96                # classifier context patch (covers PATCH_CTX x the tile box)
PATCH_CTX = 1.6
FLOWER_CODES = [f"f{i}" for i in range(1, 9)]
FLW_PATCH = 160           # flower reader context patch (its crops are 96x72, models.FLW_H/FLW_W)



def load_classes():
    p = os.path.join(ROOT, "scripts", "synth", "classes.json")
    if os.path.exists(p):
        with open(p) as f:
            c = json.load(f)
        if isinstance(c, dict):
            c = c.get("classes", c)
        if list(c) != CLASSES:
            raise SystemExit(f"scripts/synth/classes.json differs from the trainer's class list: {c}")
    return CLASSES



def tile_quad(t):
    """Points whose bounding box is the label box: the face quad plus the quad moved by the
    body's extrusion (so that rotating the points keeps a tight box around the tile body).
    Falls back to the box corners."""
    x, y, w, h = t["box"]
    corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float32)
    q = t.get("quad")
    if not q or len(q) != 4 or t.get("truncated"):
        return corners
    q = np.array(q, dtype=np.float32)
    if t.get("extrude") is not None:
        return np.concatenate([q, q + np.array(t["extrude"], np.float32)])
    qx0, qy0 = q.min(0)
    qx1, qy1 = q.max(0)
    dx = (x - qx0) if x < qx0 - 0.5 else (x + w - qx1)
    dy = (y - qy0) if y < qy0 - 0.5 else (y + h - qy1)
    pts = np.concatenate([q, q + np.array([dx, dy], np.float32)])
    # guard against inconsistent labels: must reproduce the box
    if abs(pts[:, 0].min() - x) > 2 or abs(pts[:, 1].min() - y) > 2 or abs(pts[:, 0].max() - x - w) > 2 or abs(pts[:, 1].max() - y - h) > 2:
        return corners
    return pts


# ----------------------------------------------------------------------------
# Detector data


def _pad8(p):
    return p if len(p) == 8 else np.concatenate([p, p])



def _extract_patch(im, q, ctx=PATCH_CTX, size=PATCH):
    """Crop an axis-aligned region ctx x the tile's bounding box, resized to size x size."""
    x0, y0 = q[:, 0].min(), q[:, 1].min()
    x1, y1 = q[:, 0].max(), q[:, 1].max()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = (x1 - x0) * ctx, (y1 - y0) * ctx
    # PIL crop pads with black outside; fine (rare, scenes keep tiles inside)
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    return np.asarray(im.transform((size, size), Image.EXTENT, box, Image.BILINEAR))





# ----------------------------------------------------------------------------
# Growing datasets: read a set while the generator is still writing it
# (<dir>.partial, renamed to <dir> when complete). refresh() picks up new items.


def resolve_dir(folder):
    """folder, else folder.partial (being written); 'x.partial' falls back to 'x' once renamed."""
    if folder.endswith(".partial") and not os.path.isdir(folder) and os.path.isdir(folder[:-8]):
        return folder[:-8]
    if os.path.isdir(folder):
        return folder
    if os.path.isdir(folder + ".partial"):
        return folder + ".partial"
    return None


def _listdir(path):
    """Sorted entries, or None when the folder vanished (a growing set renamed into place)."""
    try:
        return sorted(os.listdir(path))
    except FileNotFoundError:
        return None


def is_complete(folder):
    return os.path.exists(os.path.join(folder, "manifest.json"))


def _entries(folders, sub, state):
    """(folder, its directory, sorted names in its `sub` folder) for each folder that has one;
    state["done"] becomes False when a set is missing, unfinished, or renamed from .partial while
    it was read (the next refresh picks it up)."""
    for folder in folders:
        d = resolve_dir(folder)
        if d is None or not is_complete(d):
            state["done"] = False
        if d is None or not os.path.isdir(os.path.join(d, sub)):
            continue
        names = _listdir(os.path.join(d, sub))
        if names is None:
            state["done"] = False
            continue
        yield folder, d, names


def _open_rgb(path):
    """The image at `path` as RGB, or None while it is still being written."""
    try:
        im = Image.open(path)
        im.load()
        return im.convert("RGB")
    except Exception:
        return None


class GrowingScenes:
    """Scenes for both trainers; kind = 'det' (letterboxed 512 images) or 'cls' (tile patches)."""

    def __init__(self, folders, kind, limit=None, codes=None, patch=PATCH):
        self.folders = folders
        self.kind = kind
        self.limit = limit
        self.codes = set(codes) if codes else None  # cls: keep only these classes
        self.patch = patch
        self.seen = set()
        self.items = []        # det: (image, quads, sideways); cls: per-scene (patches, labels, sideways)
        self.origins = []      # the set (folder name) of each item
        self.complete = False

    def refresh(self, max_new=100000):
        state, new = {"done": True}, 0
        for folder, d, names in _entries(self.folders, "labels", state):
            for name in names:
                key = (folder, name)
                if not name.endswith(".json") or key in self.seen:
                    continue
                if self.limit is not None and len(self.seen) >= self.limit:
                    self.complete = True
                    return new
                if new >= max_new:
                    return new
                try:
                    with open(os.path.join(d, "labels", name)) as f:
                        lab = json.load(f)
                except (OSError, ValueError):
                    continue  # still being written; next refresh
                im = _open_rgb(os.path.join(d, "images", name[:-5] + ".jpg"))
                if im is None:
                    continue
                self.seen.add(key)
                self.items.append(self._prepare(im, lab))
                self.origins.append(os.path.basename(os.path.normpath(folder)))
                new += 1
        self.complete = state["done"]
        return new

    def _prepare(self, im, lab):
        if self.kind == "det":
            S = DET_CACHE_SIZE
            W, H = im.size
            r = S / max(W, H)
            nw, nh = max(1, round(W * r)), max(1, round(H * r))
            img = np.full((S, S, 3), 127, np.uint8)
            ox, oy = (S - nw) // 2, (S - nh) // 2
            img[oy:oy + nh, ox:ox + nw] = np.asarray(im.resize((nw, nh), Image.BILINEAR))
            sx, sy = nw / W, nh / H
            tiles = lab["tiles"]
            q = np.stack([_pad8(tile_quad(t)) for t in tiles]) if tiles else np.zeros((0, 8, 2), np.float32)
            q = (q * np.array([sx, sy], np.float32) + np.array([ox, oy], np.float32)).astype(np.float32)
            return img, q, np.array([bool(t.get("sideways")) for t in tiles], bool)
        patches, labels, side = [], [], []
        for t in lab["tiles"]:
            if t["code"] not in CLS_INDEX or (self.codes and t["code"] not in self.codes):
                continue
            x, y, w, h = t["box"]
            if w < 6 or h < 6:
                continue
            patches.append(_extract_patch(im, np.array([[x, y], [x + w, y + h]], np.float32), size=self.patch))
            labels.append(CLS_INDEX[t["code"]])
            side.append(bool(t.get("sideways")))
        if not patches:
            return np.zeros((0, self.patch, self.patch, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, bool)
        return np.stack(patches), np.array(labels, np.int64), np.array(side, bool)

    def __len__(self):
        return len(self.items)

    # det view
    def draw(self, n, gen, shares=None):
        """n item indices: uniform over the items, or with `shares` ({set name: share}) each draw
        first picks a set by its share, then an item of that set uniformly. A set with no share is
        not drawn from; a named set with no items yet is skipped until it has some."""
        if not shares:
            return torch.randint(0, len(self.items), (n,), generator=gen).numpy()
        groups = {}
        for i, o in enumerate(self.origins):
            groups.setdefault(o, []).append(i)
        names = [k for k in shares if shares[k] > 0 and groups.get(k)]
        if not names:
            raise SystemExit(f"train: no items in the sets the shares name ({', '.join(shares)}); sets: {', '.join(groups)}")
        which = torch.multinomial(torch.tensor([float(shares[k]) for k in names]), n, replacement=True, generator=gen)
        return np.array([groups[names[w]][int(torch.randint(0, len(groups[names[w]]), (1,), generator=gen))] for w in which.tolist()])

    def det_arrays(self, idx):
        imgs = np.stack([self.items[i][0] for i in idx])
        return imgs, [self.items[i][1] for i in idx], [self.items[i][2] for i in idx]


class GrowingTiles:
    """Single-tile crops tiles/<code>/*.jpg, read as they appear."""

    def __init__(self, folders, limit=None, codes=None, patch=PATCH):
        self.folders = folders
        self.limit = limit
        self.codes = set(codes) if codes else None  # keep only these classes
        self.patch = patch
        self.seen = set()
        self.patches, self.labels = [], []
        self.complete = not folders

    def refresh(self, max_new=100000):
        state, new = {"done": True}, 0
        for folder, d, codes in _entries(self.folders, "tiles", state):
            for code in codes:
                if code not in CLS_INDEX or (self.codes and code not in self.codes):
                    continue
                names = _listdir(os.path.join(d, "tiles", code))
                if names is None:  # the set was renamed from .partial mid-scan; next refresh
                    state["done"] = False
                    break
                for name in names:
                    key = (folder, code, name)
                    if key in self.seen or not name.endswith(".jpg"):
                        continue
                    if self.limit is not None and len(self.seen) >= self.limit:
                        self.complete = True
                        return new
                    if new >= max_new:
                        return new
                    im = _open_rgb(os.path.join(d, "tiles", code, name))
                    if im is None:
                        continue
                    self.seen.add(key)
                    self.patches.append(tile_patch(im, self.patch))
                    self.labels.append(CLS_INDEX[code])
                    new += 1
        self.complete = state["done"]
        return new


def tile_patch(im, size=PATCH):
    W, H = im.size
    if W > H:  # a sideways single tile: stand it up
        im = im.transpose(Image.ROTATE_90)
        W, H = H, W
    q = np.array([[0, 0], [W, H]], np.float32)
    arr = np.asarray(im)
    pw, ph = int(W * (PATCH_CTX - 1) / 2) + 1, int(H * (PATCH_CTX - 1) / 2) + 1
    arr = np.pad(arr, ((ph, ph), (pw, pw), (0, 0)), mode="edge")
    return _extract_patch(Image.fromarray(arr), q + np.array([pw, ph], np.float32), size=size)


def cls_pool(scenes, tiles):
    """Concatenate the current scene patches and tile patches into training arrays. The scenes'
    and tiles' own patch lists are then pointed at views of the new array, so each patch is held
    once (twice only while a rebuild copies them: 160 px patches of all classes take ~8 GB)."""
    keep = [i for i, it in enumerate(scenes.items) if len(it[1])]
    P = [scenes.items[i][0] for i in keep]
    L = [scenes.items[i][1] for i in keep]
    S = [scenes.items[i][2] for i in keep]
    if tiles is not None and tiles.patches:
        P.extend(p[None] for p in tiles.patches)
        L.append(np.array(tiles.labels, np.int64))
        S.append(np.zeros(len(tiles.labels), bool))
    if not P:
        return None
    pool = np.concatenate(P)
    del P
    o = 0
    for i in keep:
        it = scenes.items[i]
        n = len(it[1])
        scenes.items[i] = (pool[o:o + n],) + tuple(it[1:])
        o += n
    if tiles is not None:
        for j in range(len(tiles.patches)):
            tiles.patches[j] = pool[o + j]
    _release_freed_memory()
    return pool, np.concatenate(L), np.concatenate(S)


def _release_freed_memory():
    """Hand the patches just freed back to the system: glibc keeps small freed blocks in the heap,
    and a rebuild of the pool would otherwise hold the old patches, the old pool and the new one."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
