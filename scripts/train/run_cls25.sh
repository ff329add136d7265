#!/usr/bin/env bash
# Classifier, phase 25 (29 Nov 2026, stop 61): the shipped classifier (22w, model/classifier.onnx,
# or CLS25_INIT; BatchNorm frozen) fine-tuned with heavy blur on a quarter of the crops (--blur
# 0.25, data.blur_aug: Gaussian sigma 1.2-2.8 px or a motion streak 3-9 px at any angle), on
# phase 22's sets, to be blended with the network it started from (blend_cls25.sh; WiSE-FT, as
# 22w). Half of val-holdout's misread tiles are in blurred photos. Phase 22's recipe otherwise
# (--cut 0.15, lr 1e-4, shape changes 0.5); seed 125, CLS25_THREADS threads (default 2),
# wall-clock budget CLS25_DEADLINE_MIN (default 40), fixed at the first start. Resumable: run it
# again after a kill. Not shipped: blended or alone, val-holdout-xl read worse (model/HISTORY.md,
# stop 61).
# Usage (repo root): bash scripts/train/run_cls25.sh ; log: scripts/train/runs/cls25.out
export CLS25_INIT=${CLS25_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls25 cls CLS25 40 --cls-width m --threads "${CLS25_THREADS:-2}" --seed 125 --lr 1e-4 --shape 0.5 --cut 0.15 --blur 0.25 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v19 training-data/train-v20 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v14f training-data/tiles-v14 \
  --val training-data/val-holdout
