#!/usr/bin/env bash
# Classifier, phase 10 (24 Nov 2026): fine-tunes the phase-7 classifier (model/classifier.onnx;
# BatchNorm frozen) with the generator 1.6.0 --ink sets added: tiles-v16 (all classes),
# tiles-v16b (the upright ink bird 1s beside East, Red and White, which phase 7 confuses it with)
# and tiles-v16f (ink flowers), plus tiles-v15 and the phase-7 sets. AdamW lr 7e-4, seed 15,
# 1 thread (run_flw3.sh shares the machine), wall-clock budget CLS10_DEADLINE_MIN (default 80),
# fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls10.sh ; log: scripts/train/runs/cls10.out
export CLS10_INIT=${CLS10_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls10 cls CLS10 80 --cls-width m --threads 1 --seed 15 --lr 7e-4 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v16 training-data/tiles-v16b training-data/tiles-v16f training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
