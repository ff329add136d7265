#!/usr/bin/env bash
# Flower reader, phase 17 (29 Nov 2026, stop 59): flower reader 1 (member 0 of the shipped
# model/flowers.onnx, or FLW17_INIT; BatchNorm frozen) fine-tuned on generator 1.17.0's tiles-v22
# (half of it the Symbola glyphs with the flowers' pictures shuffled, --swap-art; gen_v117.sh)
# beside train-v20 and two single-flower sets, to be blended with its start (blend_v117.sh). The
# held-out Unicode set's orchid (a tuft of ink leaves under a small 蘭) was read as the plant the
# readers had learnt to go with that line-art style. AdamW lr 3e-4, shape changes 0.5, seed 171,
# FLW17_THREADS threads (default 1), wall-clock budget FLW17_DEADLINE_MIN (default 35), fixed at
# the first start. Resumable: run it again after a kill.
# Not shipped: val-holdout lost three hands in the pipeline (model/HISTORY.md, stop 59).
# Usage (repo root): bash scripts/train/run_flw17.sh ; log: scripts/train/runs/flw17.out
export FLW17_INIT=${FLW17_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw17 flw FLW17 35 --cls-width m --init-member 0 --threads "${FLW17_THREADS:-1}" --seed 171 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v20 \
  --tiles training-data/tiles-v22 training-data/tiles-v18a training-data/tiles-v16f \
  --val training-data/val-holdout
