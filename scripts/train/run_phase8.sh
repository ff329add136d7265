#!/usr/bin/env bash
# Classifier phase 8 (24 Nov 2026): fine-tunes the shipped phase-7 model/classifier.onnx
# (onnx_weights.py reads the folded weights back; BatchNorm frozen; a fresh checkout has no
# runs/ checkpoints) with a fresh AdamW, lr 1e-3 (warm-up, cosine), seed 13, greyscale 30 % and swapped colour channels 15 % (held-out sets draw the training art in black), 1 thread (the flower
# reader of run_flw1.sh shares the machine), wall-clock budget CLS8_DEADLINE_MIN (default 90),
# fixed at the first start. Data: the generator 1.4.0 sets (train-v14 scenes, tiles-v14f flowers,
# seasons and bird 1s, tiles-v14 all classes; --extra-styles --extra-fonts) and the earlier sets
# (train, tiles-train, tiles-fonts, tiles-flowers), read while gen_all.sh is still writing them.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_phase8.sh ; log: scripts/train/runs/cls8.out
exec bash "$(dirname "$0")/finetune.sh" cls8 cls CLS8 90 --cls-width m --threads 1 --seed 13 --grey 0.3 --shuffle 0.15 --lr 1e-3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
