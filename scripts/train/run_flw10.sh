#!/usr/bin/env bash
# Flower reader, phase 10 (25 Nov 2026, stop 29): fine-tunes flower reader phase 1 (the first
# network of model/flowers.onnx, --init-member 0; or FLW10_INIT / FLW10_MEMBER; BatchNorm frozen)
# with the small-tile resampling (--lowres 0.5, data.lowres_aug) and the shape changes: most
# flowers and seasons misread on val-holdout were 50-65 px tall in the photo, their corner
# numeral a few pixels high, while most of the reader's flower crops come from sharp 128-px
# single tiles.
# AdamW lr 5e-4, seed 67, FLW10_THREADS threads (default 1), wall-clock budget
# FLW10_DEADLINE_MIN (default 65), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw10.sh ; log: scripts/train/runs/flw10.out
export FLW10_INIT=${FLW10_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw10 flw FLW10 65 --cls-width m --init-member "${FLW10_MEMBER:-0}" --threads "${FLW10_THREADS:-1}" --seed 67 --lr 5e-4 --shape 0.5 --lowres 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v14f training-data/tiles-flowers training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v16f \
  --val training-data/val-holdout
