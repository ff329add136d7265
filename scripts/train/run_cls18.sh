#!/usr/bin/env bash
# Classifier, phase 18 (27 Nov 2026, stop 42): fine-tunes classifier phase 17 (the shipped
# model/classifier.onnx, or CLS18_INIT; BatchNorm frozen) with a phone's sharpening and noise
# reduction in the augmentation (--sharpen 0.3, data.sharpen_aug): photos sharpened at the
# working scale cost val-holdout 0.003-0.016 of tile accuracy (stop 42's stress sets, HISTORY.md).
# Scenes train-v16 and train-v19, single tiles tiles-v16f, tiles-v15f and tiles-v14; shape
# changes as phases 12 and 17 (--shape 0.5).
# AdamW lr 3e-4, seed 83, CLS18_THREADS threads (default 1), wall-clock budget
# CLS18_DEADLINE_MIN (default 50), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls18.sh ; log: scripts/train/runs/cls18.out
export CLS18_INIT=${CLS18_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls18 cls CLS18 50 --cls-width m --threads "${CLS18_THREADS:-1}" --seed 83 --lr 3e-4 --shape 0.5 --sharpen 0.3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v19 \
  --tiles training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v14 \
  --val training-data/val-holdout
