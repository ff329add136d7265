#!/usr/bin/env bash
# Flower reader, phase 3 (24 Nov 2026): fine-tunes the phase-1 reader (model/flowers.onnx;
# BatchNorm frozen) with the generator 1.6.0 --ink sets added (tiles-v16f flowers and seasons,
# tiles-v16 all classes): sets printed in one ink with a small character in a corner, often no
# numeral, and dense line-art plants, often another flower's (--decoy-flowers). AdamW lr 5e-4,
# seed 14, 1 thread (run_cls10.sh shares the machine), wall-clock budget FLW3_DEADLINE_MIN
# (default 75), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw3.sh ; log: scripts/train/runs/flw3.out
export FLW3_INIT=${FLW3_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw3 flw FLW3 75 --cls-width m --threads 1 --seed 14 --lr 5e-4 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v16f training-data/tiles-v16 training-data/tiles-v15f training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
