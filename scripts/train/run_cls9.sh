#!/usr/bin/env bash
# Classifier phase 9 (24 Nov 2026): the classifier on large crops (train.py cls --large: 96x72
# from 160 px patches, the flower reader's size, for all 43 classes), fine-tuned from the phase-7
# model/classifier.onnx (trained on 48x64; BatchNorm frozen), AdamW lr 1e-3 (warm-up, cosine),
# greyscale 15 %, swapped colour channels 10 %, seed 13, CLS9_THREADS threads (default 2; it was
# resumed with 1 when run_flw2.sh started beside it), wall-clock budget
# CLS9_DEADLINE_MIN (default 125), fixed at the first start. Data: as phase 7, plus tiles-v15
# (gen_all.sh: 200 more single tiles per class, seed 21, --extra-styles --extra-fonts), read as it
# is written. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls9.sh ; log: scripts/train/runs/cls9.out
exec bash "$(dirname "$0")/finetune.sh" cls9 cls CLS9 125 --large --cls-width m --threads "${CLS9_THREADS:-2}" --seed 13 --lr 1e-3 --grey 0.15 --shuffle 0.1 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
