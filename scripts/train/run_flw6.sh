#!/usr/bin/env bash
# Flower reader phase 6: phase 1's recipe (data, lr, 90 min) started from classifier phase 12
# (cls12, trained with the shape changes) instead of phase 7, with the shape changes on: a reader
# that starts elsewhere errs elsewhere, for averaging with phase 1. Resumable: run again after an
# interruption.
export FLW6_INIT=${FLW6_INIT:-scripts/train/runs/cls12/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw6 flw FLW6 80 --cls-width m --threads "${FLW6_THREADS:-1}" --seed 31 --lr 1e-3 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
