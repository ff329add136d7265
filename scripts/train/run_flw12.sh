#!/usr/bin/env bash
# Flower reader, phase 12 (28 Nov 2026, stop 47): fine-tunes flower reader phase 5 (the shipped
# model/flowers2.onnx, or FLW12_INIT; BatchNorm frozen) on the flowers of scene and single-tile
# sets made again with generator 1.13.0 (scripts/train/gen_v113.sh: tiles drawn in the right
# depth order). Shape changes as phase 5 (--shape 0.5). AdamW lr 3e-4, seed 101, FLW12_THREADS
# threads (default 1), wall-clock budget FLW12_DEADLINE_MIN (default 50), fixed at the first
# start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw12.sh ; log: scripts/train/runs/flw12.out
export FLW12_INIT=${FLW12_INIT:-model/flowers2.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw12 flw FLW12 50 --cls-width m --threads "${FLW12_THREADS:-1}" --seed 101 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v19 \
  --tiles training-data/tiles-v15f training-data/tiles-v16f training-data/tiles-v15g training-data/tiles-v18a training-data/tiles-v14f training-data/tiles-flowers \
  --val training-data/val-holdout
