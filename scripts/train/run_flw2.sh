#!/usr/bin/env bash
# Flower reader, phase 2 (24 Nov 2026): fine-tunes the phase-1 reader (model/flowers.onnx;
# BatchNorm frozen) on flower and season crops with tiles-v15f and tiles-v15g added: generator 1.5.0
# --decoy-flowers, where a flower or season often shows another one's plant or scene, so that
# only the character and the numeral tell the eight apart. AdamW lr 5e-4 (warm-up, cosine),
# greyscale 35 %, swapped colour channels 25 %, seed 12, 1 thread (run_cls9.sh shares the
# machine), wall-clock budget FLW2_DEADLINE_MIN (default 60), fixed at the first start.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw2.sh ; log: scripts/train/runs/flw2.out
export FLW2_INIT=${FLW2_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw2 flw FLW2 60 --cls-width m --threads 1 --seed 12 --lr 5e-4 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
