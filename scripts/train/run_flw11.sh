#!/usr/bin/env bash
# Flower reader, phase 11 (27 Nov 2026, stop 42): fine-tunes flower reader phase 1 (the first
# network of the shipped model/flowers.onnx, or FLW11_INIT with FLW11_MEMBER) with a phone's
# sharpening and noise reduction in the augmentation (--sharpen 0.3, data.sharpen_aug): on the
# stop-42 stress set sharpened at the working scale, flowers misread rose from 29 to 56.
# The flowers of train-v16 and train-v19 and the flower sets tiles-v15f and tiles-v16f; shape
# changes as phase 5. AdamW lr 3e-4, seed 89, FLW11_THREADS threads (default 1), wall-clock
# budget FLW11_DEADLINE_MIN (default 50). Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw11.sh ; log: scripts/train/runs/flw11.out
export FLW11_INIT=${FLW11_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw11 flw FLW11 50 --cls-width m --init-member "${FLW11_MEMBER:-0}" --threads "${FLW11_THREADS:-1}" --seed 89 --lr 3e-4 --shape 0.5 --sharpen 0.3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v19 \
  --tiles training-data/tiles-v15f training-data/tiles-v16f \
  --val training-data/val-holdout
