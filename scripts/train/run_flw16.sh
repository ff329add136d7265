#!/usr/bin/env bash
# Flower reader, phase 16 (29 Nov 2026, stop 59): flower reader 1 (member 0 of the shipped
# model/flowers.onnx, or FLW16_INIT; BatchNorm frozen) fine-tuned with generator 1.16.0's line-art
# sets (gen_v116.sh) beside train-v20 and three single-flower sets, to be blended with the network
# it started from (train.py blend; WiSE-FT). Held-out orchids drawn as ink plants with a small
# character were read as chrysanthemum, spring or bamboo (val-holdout-xl: 33 misread orchids).
# AdamW lr 3e-4, shape changes 0.5, seed 161, FLW16_THREADS threads (default 1), wall-clock
# budget FLW16_DEADLINE_MIN (default 40), fixed at the first start. Resumable: run it again after
# a kill. Not shipped: flowers read no better (model/HISTORY.md, stop 59).
# Usage (repo root): bash scripts/train/run_flw16.sh ; log: scripts/train/runs/flw16.out
export FLW16_INIT=${FLW16_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw16 flw FLW16 40 --cls-width m --init-member 0 --threads "${FLW16_THREADS:-1}" --seed 161 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v21 training-data/train-v20 \
  --tiles training-data/tiles-v21 training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-flowers \
  --val training-data/val-holdout
