#!/usr/bin/env bash
# Flower reader, phase 4 (24 Nov 2026): fine-tunes flower reader phase 3 (stopped at step 1995,
# exported to FLW4_INIT) on flower and season crops where the drawn picture never tells the
# tile: tiles-v16d (generator 1.6.0 --decoy-always: every drawn flower shows a random plant or
# scene, --ink sets included), tiles-v16f, tiles-v15f, tiles-v14f and the scenes of train-v16
# and train-v14 (their art-family flowers keep their own pictures). The older single-tile sets,
# whose drawn flowers always show their own plant, are left out: phase 3 still read the held-out
# ink flowers by their plants. AdamW lr 7e-4, seed 16, 1 thread, wall-clock budget
# FLW4_DEADLINE_MIN (default 70), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): FLW4_INIT=FILE bash scripts/train/run_flw4.sh ; log: scripts/train/runs/flw4.out
export FLW4_INIT=${FLW4_INIT:-scripts/train/runs/flw3/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw4 flw FLW4 70 --cls-width m --threads 1 --seed 16 --lr 7e-4 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v16d training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v14f \
  --val training-data/val-holdout
