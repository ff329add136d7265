#!/usr/bin/env bash
# Classifier, phase 17 (26 Nov 2026, stop 32): fine-tunes classifier phase 12 (the shipped
# model/classifier2.onnx, or CLS17_INIT; BatchNorm frozen) with the scenes the classifiers never
# saw: train-v19 and train-v20 (flowers and face-down tiles laid apart), train-grids (sets laid
# out in grids) and train-close (close-ups), besides train-v14 and train-v16 and the single-tile
# sets still on disk; shape changes as phase 12 (--shape 0.5).
# AdamW lr 3e-4, seed 23, CLS17_THREADS threads (default 2), wall-clock budget
# CLS17_DEADLINE_MIN (default 45), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls17.sh ; log: scripts/train/runs/cls17.out
export CLS17_INIT=${CLS17_INIT:-model/classifier2.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls17 cls CLS17 45 --cls-width m --threads "${CLS17_THREADS:-2}" --seed 23 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v19 training-data/train-v20 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 \
  --tiles training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v17b training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers \
  --val training-data/val-holdout
