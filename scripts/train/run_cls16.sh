#!/usr/bin/env bash
# Classifier phase 16 (25 Nov 2026, stop 29): fine-tunes classifier phase 12 (model/classifier2.onnx,
# the cascade's second network; or CLS16_INIT; BatchNorm frozen) with the small-tile resampling
# (--lowres 0.3, data.lowres_aug) and the shape changes, for blurred and small tiles.
# AdamW lr 5e-4, seed 71, CLS16_THREADS threads (default 1), wall-clock budget
# CLS16_DEADLINE_MIN (default 65), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls16.sh ; log: scripts/train/runs/cls16.out
export CLS16_INIT=${CLS16_INIT:-model/classifier2.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls16 cls CLS16 65 --cls-width m --threads "${CLS16_THREADS:-1}" --seed 71 --lr 5e-4 --shape 0.5 --lowres 0.3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v17b training-data/tiles-v16f training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-v15f \
  --val training-data/val-holdout
