#!/usr/bin/env bash
# Classifier, phase 11 (24 Nov 2026): fine-tunes classifier phase 10 (runs/cls10/classifier.onnx,
# or CLS11_INIT; BatchNorm frozen) with the generator 1.7.0 --birds sets added: tiles-v17 (the
# 1 of bamboo as procedural birds only) and tiles-v17b (birds beside the classes the unseen bird
# was read as: the winds, dragons, 2s, 9s and two flowers), plus the phase-10 sets.
# AdamW lr 5e-4, seed 17, CLS11_THREADS threads (default 2), wall-clock budget
# CLS11_DEADLINE_MIN (default 65), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls11.sh ; log: scripts/train/runs/cls11.out
export CLS11_INIT=${CLS11_INIT:-scripts/train/runs/cls10/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls11 cls CLS11 65 --cls-width m --threads "${CLS11_THREADS:-2}" --seed 17 --lr 5e-4 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v16 training-data/tiles-v16b training-data/tiles-v16f training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
