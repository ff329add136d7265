#!/usr/bin/env bash
# Classifier, phase 12 (24 Nov 2026, fifth session): fine-tunes classifier phase 7 (its own
# export runs/cls7/classifier.onnx, which was model/classifier.onnx until commit e4c1dcb; or
# CLS12_INIT; BatchNorm frozen) on the phase-11 data with shape
# changes (--shape 0.5, data.shape_aug: elastic warps, thicker or thinner strokes, frames drawn
# round faces), aimed at type faces and art the generator does not draw.
# AdamW lr 5e-4, seed 19, CLS12_THREADS threads (default 1), wall-clock budget
# CLS12_DEADLINE_MIN (default 95), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls12.sh ; log: scripts/train/runs/cls12.out
# Shipped averaged with phase 7: train.py export --cls-run cls7 --cls-also cls12
export CLS12_INIT=${CLS12_INIT:-scripts/train/runs/cls7/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls12 cls CLS12 95 --cls-width m --threads "${CLS12_THREADS:-1}" --seed 19 --lr 5e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v16 training-data/tiles-v16b training-data/tiles-v16f training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
