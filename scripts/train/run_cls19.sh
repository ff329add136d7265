#!/usr/bin/env bash
# Classifier, phase 19 (28 Nov 2026, stop 47): fine-tunes classifier phase 17 (the shipped
# model/classifier.onnx, or CLS19_INIT; BatchNorm frozen) on phase 17's scene and single-tile
# sets made again with generator 1.13.0 (scripts/train/gen_v113.sh). Every shipped network was
# trained on scenes drawn in the old depth order, where a tile turned upside down or sideways
# could cover the top of its nearer neighbour's face (HISTORY.md, stop 46), which no photo shows.
# Shape changes as phases 12 and 17 (--shape 0.5). AdamW lr 2e-4, seed 97, CLS19_THREADS threads
# (default 1), wall-clock budget CLS19_DEADLINE_MIN (default 50), fixed at the first start.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls19.sh ; log: scripts/train/runs/cls19.out
export CLS19_INIT=${CLS19_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls19 cls CLS19 50 --cls-width m --threads "${CLS19_THREADS:-1}" --seed 97 --lr 2e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v16 training-data/train-v19 training-data/train-grids training-data/train-close training-data/train-v20 training-data/train-v14 \
  --tiles training-data/tiles-v15f training-data/tiles-v16f training-data/tiles-v15g training-data/tiles-v18a training-data/tiles-v17b training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers \
  --val training-data/val-holdout
