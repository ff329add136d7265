#!/usr/bin/env bash
# Flower reader phase 5: phase 1 (the shipped reader) fine-tuned with the shape changes
# (data.shape_aug: elastic warp, thicker/thinner strokes, frames), on phase 1's data plus the
# decoy-flower sets, so that a second reader that errs differently can be averaged with it.
# Resumable: run again after an interruption.
export FLW5_INIT=${FLW5_INIT:-scripts/train/runs/flw1/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw5 flw FLW5 90 --cls-width m --threads "${FLW5_THREADS:-1}" --seed 29 --lr 5e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train training-data/tiles-v15f training-data/tiles-v15g \
  --val training-data/val-holdout
