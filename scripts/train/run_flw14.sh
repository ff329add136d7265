#!/usr/bin/env bash
# Flower reader, phase 14 (29 Nov 2026, stop 58): flower reader phase 1 (member 0 of the shipped
# model/flowers.onnx, or FLW14_INIT; BatchNorm frozen) fine-tuned on the flowers of all six scene
# sets of classifier phase 17 (train-v19, -v20, -grids, -close, -v16, -v14) and six single-flower
# sets, to be blended with the network it started from (blend_flw14.sh; WiSE-FT, as classifiers
# 22w and 23w at stop 57): the fine-tunes of stops 47 and 52 alone moved val-holdout's flower
# errors round rather than removing them. AdamW lr 3e-4, shape changes 0.5, seed 141,
# FLW14_THREADS threads (default 1), wall-clock budget FLW14_DEADLINE_MIN (default 50), fixed at
# the first start. Resumable: run it again after a kill; it does nothing while the run is alive.
# Data: gen_v113.sh's sets (the trainer reads sets while they grow).
# Not shipped: blended half and half with phase 1 (and phase 15 with phase 5), the flower cascade read
# val-holdout's 480 flowers 0.8958 (shipped 0.8917) but val-holdout-xl's 2021 only 0.9099 (0.9159;
# model/HISTORY.md, stop 58).
# Usage (repo root): bash scripts/train/run_flw14.sh ; log: scripts/train/runs/flw14.out
export FLW14_INIT=${FLW14_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw14 flw FLW14 50 --cls-width m --init-member 0 --threads "${FLW14_THREADS:-1}" --seed 141 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v19 training-data/train-grids training-data/train-close training-data/train-v20 training-data/train-v14 \
  --tiles training-data/tiles-v15f training-data/tiles-v16f training-data/tiles-v15g training-data/tiles-v18a training-data/tiles-v14f training-data/tiles-flowers \
  --val training-data/val-holdout
