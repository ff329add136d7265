#!/usr/bin/env bash
# Flower reader, phase 9 (25 Nov 2026, twelfth session): fine-tunes flower reader phase 1 (the
# first network of model/flowers.onnx, --init-member 0; or FLW9_INIT / FLW9_MEMBER; BatchNorm
# frozen) on phase 5's data with the shape changes and the one-ink reprint (--ink 0.3,
# data.ink_aug), aimed at mono-ink and line-art flower designs.
# AdamW lr 5e-4, seed 59, FLW9_THREADS threads (default 1), wall-clock budget
# FLW9_DEADLINE_MIN (default 60), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw9.sh ; log: scripts/train/runs/flw9.out
# Averaged with the shipped readers and spotter, imported with train.py import
# (--init-member 0, 1 and, for the spotter, -1 with --cls-width spot):
#   train.py export --det-run none --cls-run none --flw-run flw1 --flw-also flw5 flw9 --spot-run spot1 --spot-weight 0.3333
export FLW9_INIT=${FLW9_INIT:-model/flowers.onnx}
exec bash "$(dirname "$0")/finetune.sh" flw9 flw FLW9 60 --cls-width m --init-member "${FLW9_MEMBER:-0}" --threads "${FLW9_THREADS:-1}" --seed 59 --lr 5e-4 --shape 0.5 --ink 0.3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train training-data/tiles-v15f training-data/tiles-v15g \
  --val training-data/val-holdout
