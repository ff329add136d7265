#!/usr/bin/env bash
# Classifier, phase 15 (25 Nov 2026, twelfth session): fine-tunes classifier phase 12 (the second
# network of model/classifier.onnx, --init-member 1; or CLS15_INIT / CLS15_MEMBER; BatchNorm
# frozen) on the phase-12 data with the shape changes and the one-ink reprint (--ink 0.3,
# data.ink_aug: a crop's drawing printed again in one dark ink on its own face colour, a third
# of them as outlines), aimed at mono-ink and line-art sets.
# AdamW lr 5e-4, seed 53, CLS15_THREADS threads (default 2), wall-clock budget
# CLS15_DEADLINE_MIN (default 65), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_cls15.sh ; log: scripts/train/runs/cls15.out
# Averaged with phase 7 (member 0 of the shipped file, imported with train.py import):
#   train.py import --init-onnx model/classifier.onnx --init-member 0 --cls-width m --run scripts/train/runs/cls7
#   train.py export --det-run none --cls-run cls7 --cls-also cls15 --flw-run none
export CLS15_INIT=${CLS15_INIT:-model/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls15 cls CLS15 65 --cls-width m --init-member "${CLS15_MEMBER:-1}" --threads "${CLS15_THREADS:-2}" --seed 53 --lr 5e-4 --shape 0.5 --ink 0.3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v16 training-data/tiles-v16b training-data/tiles-v16f training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
