#!/usr/bin/env bash
# Flower reader phase 7: phase 5's recipe (phase 1 + the shape changes) with another seed and a
# 40-minute budget, a third reader to average. Resumable: run again after an interruption.
export FLW7_INIT=${FLW7_INIT:-scripts/train/runs/flw1/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw7 flw FLW7 40 --cls-width m --threads "${FLW7_THREADS:-1}" --seed 37 --lr 5e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train training-data/tiles-v15f training-data/tiles-v15g \
  --val training-data/val-holdout
