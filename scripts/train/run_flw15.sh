#!/usr/bin/env bash
# Flower reader, phase 15 (29 Nov 2026, stop 58): flower reader phase 5 (the shipped
# model/flowers2.onnx, or FLW15_INIT; BatchNorm frozen) fine-tuned on the flowers of all six scene
# sets of classifier phase 17 (train-v19, -v20, -grids, -close, -v16, -v14) and six single-flower
# sets, to be blended with the network it started from (blend_flw15.sh; WiSE-FT, as classifiers
# 22w and 23w at stop 57): the fine-tunes of stops 47 and 52 alone moved val-holdout's flower
# errors round rather than removing them. AdamW lr 3e-4, shape changes 0.5, seed 143,
# FLW15_THREADS threads (default 1), wall-clock budget FLW15_DEADLINE_MIN (default 50), fixed at
# the first start. Resumable: run it again after a kill; it does nothing while the run is alive.
# Data: gen_v113.sh's sets (the trainer reads sets while they grow).
# Not shipped: see run_flw14.sh and model/HISTORY.md, stop 58.
# Usage (repo root): bash scripts/train/run_flw15.sh ; log: scripts/train/runs/flw15.out
export FLW15_INIT=${FLW15_INIT:-model/flowers2.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw15 flw FLW15 50 --cls-width m --threads "${FLW15_THREADS:-1}" --seed 143 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v19 training-data/train-grids training-data/train-close training-data/train-v20 training-data/train-v14 \
  --tiles training-data/tiles-v15f training-data/tiles-v16f training-data/tiles-v15g training-data/tiles-v18a training-data/tiles-v14f training-data/tiles-flowers \
  --val training-data/val-holdout
