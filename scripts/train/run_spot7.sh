#!/usr/bin/env bash
# Character spotter, phase 7 (29 Nov 2026, stop 59): the shipped spotter (read back from
# model/flowers.onnx into scripts/train/runs/ship-spot: `train.py import --init-onnx
# model/flowers.onnx --init-member -1 --cls-width spot --run scripts/train/runs/ship-spot`, or
# SPOT7_INIT, a checkpoint) fine-tuned on generator 1.17.0's tiles-v22 (--swap-art; gen_v117.sh)
# beside two single-flower sets and train-v16 (spotter.sh), to be blended with its start
# (blend_v117.sh). AdamW lr 3e-4, seed 172, one thread, wall-clock budget SPOT7_DEADLINE_MIN
# (default 35), fixed at the first start. Resumable.
# Not shipped: val-holdout lost three hands in the pipeline (model/HISTORY.md, stop 59).
# Usage (repo root): bash scripts/train/run_spot7.sh ; log: scripts/train/runs/spot7.out
SPOT7_TILES=${SPOT7_TILES:-training-data/tiles-v22 training-data/tiles-v18a training-data/tiles-v16f} \
  exec bash "$(dirname "$0")/spotter.sh" spot7 --init "${SPOT7_INIT:-scripts/train/runs/ship-spot/ckpt.pt}" 35 --threads 1 --seed 172 --lr 3e-4
