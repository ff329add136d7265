"""Contact sheet of a classifier checkpoint's mistakes on a scene set (what the crops looked like).

Usage (repo root):
  PYTHONPATH=scripts/train /usr/bin/python3 -m mahjong_train.tools.errors scripts/train/runs/classifier/cls22/ckpt.pt training-data/val-holdout /tmp/errors.png

Prints the crop accuracy and the most common (true, predicted) pairs, and writes up to 240
wrong crops (48x64, as the classifier saw them, 2x) labelled true>predicted.
"""
import sys
from collections import Counter

import numpy as np
import torch
from PIL import Image, ImageDraw

from ..data.batches import cls_batch
from ..data.sets import CLASSES, GrowingScenes, cls_pool
from ..models.nets import Classifier

if len(sys.argv) != 4:
    sys.exit("usage: python -m mahjong_train.tools.errors CKPT SCENE_DIR OUT.png  (e.g. scripts/train/runs/classifier/cls22/ckpt.pt training-data/val-holdout /tmp/errors.png)")
ck = torch.load(sys.argv[1], map_location='cpu')
m = Classifier(ck.get('extra', {}).get('width', 's')); m.load_state_dict(ck['ema']); m.eval()
val = GrowingScenes([sys.argv[2]], 'cls'); val.refresh()
P, L, S = cls_pool(val, None)
gen = torch.Generator().manual_seed(0)
preds = []; xs = []
with torch.no_grad():
    for s in range(0, len(L), 256):
        idx = np.arange(s, min(s+256, len(L)))
        x, y = cls_batch(P, L, S, idx, gen, aug=False)
        preds.append(m(x).argmax(1).numpy()); xs.append(x.numpy())
pr = np.concatenate(preds); X = np.concatenate(xs)
wrong = np.where(pr != L)[0]
print('acc', 1 - len(wrong)/len(L), 'wrong', len(wrong))
print(Counter((CLASSES[L[i]], CLASSES[pr[i]]) for i in wrong).most_common(40))
# per-scene-image index for these crops
rng = np.random.default_rng(0); sel = wrong if len(wrong) <= 240 else np.sort(rng.choice(wrong, 240, replace=False))
cols = 20; sc = 2; cw, ch = 48*sc, 64*sc + 14
sheet = Image.new('RGB', (cols*cw, ((len(sel)+cols-1)//cols)*ch), 'white'); d = ImageDraw.Draw(sheet)
for k, i in enumerate(sel):
    im = Image.fromarray((X[i].transpose(1,2,0)*255).clip(0,255).astype(np.uint8)).resize((48*sc, 64*sc))
    x0, y0 = (k % cols)*cw, (k//cols)*ch
    sheet.paste(im, (x0, y0)); d.text((x0+2, y0+64*sc), f'{CLASSES[L[i]]}>{CLASSES[pr[i]]}', fill='red')
sheet.save(sys.argv[3])
