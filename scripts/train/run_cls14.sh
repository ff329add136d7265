#!/usr/bin/env bash
# Classifier, phase 14 (24 Nov 2026, seventh session): phase 7 (runs/cls7/classifier.onnx, or
# CLS14_INIT; BatchNorm frozen) on phase 13's data with stronger changes (shape 0.7, 20 %
# greyscale, 10 % swapped colour channels), seed 47, lr 5e-4, budget CLS14_DEADLINE_MIN
# (default 60): a third classifier to average. Resumable: run again after an interruption.
export CLS14_INIT=${CLS14_INIT:-scripts/train/runs/cls7/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls14 cls CLS14 60 --cls-width m --threads "${CLS14_THREADS:-1}" --seed 47 --lr 5e-4 --shape 0.7 --grey 0.2 --shuffle 0.1 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train training-data/train-v16 \
  --tiles training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v16d training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v16 training-data/tiles-v16b training-data/tiles-v16f training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
