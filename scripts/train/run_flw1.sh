#!/usr/bin/env bash
# Flower reader, phase 1 (24 Nov 2026): train.py flw, the classifier network (width m) on 96x72
# crops of flower and season tiles only (patches of 160 px from the scenes and the single-tile
# sets), loss over the eight flower logits, greyscale 35 %, swapped colour channels 25 %. Starts
# from the weights of the shipped model/classifier.onnx (BatchNorm frozen), AdamW lr 1e-3
# (warm-up, cosine), seed 11, 1 thread (run_phase8.sh shares the machine), wall-clock budget
# FLW1_DEADLINE_MIN (default 90), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw1.sh ; log: scripts/train/runs/flw1.out
exec bash "$(dirname "$0")/finetune.sh" flw1 flw FLW1 90 --cls-width m --threads 1 --seed 11 --lr 1e-3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
