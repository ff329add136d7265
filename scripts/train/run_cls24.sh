#!/usr/bin/env bash
# Classifier, phase 24 (29 Nov 2026, stop 59): the shipped classifier (22w, model/classifier.onnx,
# or CLS24_INIT; BatchNorm frozen) fine-tuned with generator 1.16.0's line-art sets (gen_v116.sh:
# the bird and the flowers printed as one-ink line drawings or ink paintings) beside three of
# phase 17's scene sets and the bird and flower tile sets, to be blended with the network it
# started from (train.py blend; WiSE-FT, as 22w and 23w at stop 57). Held-out line-art birds were
# read as winds or dragons (val-holdout-xl: 20 of 24 misread birds). Phase 22's recipe otherwise
# (--cut 0.15, lr 1e-4, shape changes 0.5); seed 124, CLS24_THREADS threads (default 1),
# wall-clock budget CLS24_DEADLINE_MIN (default 40), fixed at the first start. Resumable: run it
# again after a kill. Not shipped: held-out birds read worse (model/HISTORY.md, stop 59).
# Usage (repo root): bash scripts/train/run_cls24.sh ; log: scripts/train/runs/cls24.out
export CLS24_INIT=${CLS24_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls24 cls CLS24 40 --cls-width m --threads "${CLS24_THREADS:-1}" --seed 124 --lr 1e-4 --shape 0.5 --cut 0.15 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v21 training-data/train-v20 training-data/train-grids training-data/train-v16 \
  --tiles training-data/tiles-v21 training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v18a \
  --val training-data/val-holdout
