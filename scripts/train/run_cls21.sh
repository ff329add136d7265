#!/usr/bin/env bash
# Classifier, phase 21 (29 Nov 2026, stop 56): phase 20's recipe (run_cls20.sh: tiles shown as the
# pipeline reads a tile cut by the photo's edge, --cut 0.15) for the second classifier, phase 12
# (the shipped model/classifier2.onnx, or CLS21_INIT; BatchNorm frozen), which reads the crops the
# first is less than 0.9 sure of, cut tiles among them. Scenes of train-v16, lr 1e-4, shape
# changes 0.5, seed 103, CLS21_THREADS threads (default 1), wall-clock budget CLS21_DEADLINE_MIN
# (default 40), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls21.sh ; log: scripts/train/runs/cls21.out
export CLS21_INIT=${CLS21_INIT:-model/classifier2.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls21 cls CLS21 40 --cls-width m --threads "${CLS21_THREADS:-1}" --seed 103 --lr 1e-4 --shape 0.5 --cut 0.15 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v14 training-data/tiles-v15f \
  --val training-data/val-holdout
