#!/usr/bin/env bash
# Classifier, phase 22 (29 Nov 2026, stop 57): phase 20's recipe (run_cls20.sh: tiles shown as the
# pipeline reads a tile cut by the photo's edge, --cut 0.15) from classifier phase 17 (the shipped
# model/classifier.onnx, or CLS22_INIT; BatchNorm frozen), but on all of phase 17's scene sets
# (train-v19, train-v20, train-grids, train-close, train-v16, train-v14; gen_all.sh makes them),
# because phase 20 saw train-v16 only and lost held-out birds and hands on val-holdout-xl
# (model/HISTORY.md, stop 56). lr 1e-4, shape changes 0.5, seed 105, CLS22_THREADS threads
# (default 1), wall-clock budget CLS22_DEADLINE_MIN (default 45), fixed at the first start.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls22.sh ; log: scripts/train/runs/cls22.out
export CLS22_INIT=${CLS22_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls22 cls CLS22 45 --cls-width m --threads "${CLS22_THREADS:-1}" --seed 105 --lr 1e-4 --shape 0.5 --cut 0.15 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v19 training-data/train-v20 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v14f training-data/tiles-v14 \
  --val training-data/val-holdout
