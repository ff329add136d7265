#!/usr/bin/env bash
# Flower reader phase 8 (24 Nov 2026, seventh session): phase 5 (runs/flw5/flowers.onnx, or
# FLW8_INIT) trained on with the shape changes and the spotter's decoy-flower sets (tiles-v18a,
# tiles-v18b, tiles-v16d, tiles-v16f, scenes of train-v16) added to phase 5's data, seed 43,
# lr 3e-4, budget FLW8_DEADLINE_MIN (default 85): a reader to average with phases 1 and 5.
# Resumable: run again after an interruption.
export FLW8_INIT=${FLW8_INIT:-scripts/train/runs/flw5/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw8 flw FLW8 85 --cls-width m --threads "${FLW8_THREADS:-1}" --seed 43 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train training-data/train-v16 \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v16d training-data/tiles-v16f \
  --val training-data/val-holdout
