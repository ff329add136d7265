#!/usr/bin/env bash
# Classifier, phase 23 (29 Nov 2026, stop 57): phase 22's recipe (run_cls22.sh: --cut 0.15 on all
# of phase 17's scene sets) for the second classifier, phase 12 (the shipped
# model/classifier2.onnx, or CLS23_INIT; BatchNorm frozen). lr 1e-4, shape changes 0.5, seed 107,
# CLS23_THREADS threads (default 1), wall-clock budget CLS23_DEADLINE_MIN (default 45), fixed at
# the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls23.sh ; log: scripts/train/runs/cls23.out
export CLS23_INIT=${CLS23_INIT:-model/classifier2.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls23 cls CLS23 45 --cls-width m --threads "${CLS23_THREADS:-1}" --seed 107 --lr 1e-4 --shape 0.5 --cut 0.15 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v19 training-data/train-v20 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v14f training-data/tiles-v14 \
  --val training-data/val-holdout
