#!/usr/bin/env bash
# Classifier phase 7 (24 Nov 2026): fine-tunes the shipped phase-5 model/classifier.onnx
# (onnx_weights.py reads the folded weights back; BatchNorm frozen; a fresh checkout has no
# runs/ checkpoints) with a fresh AdamW, lr 1e-3 (warm-up, cosine), seed 9, 1 thread (the detector
# fine-tune of run_det3.sh shares the machine), wall-clock budget CLS7_DEADLINE_MIN (default 100),
# fixed at the first start. Data: the generator 1.4.0 sets (train-v14 scenes, tiles-v14f flowers,
# seasons and bird 1s, tiles-v14 all classes; --extra-styles --extra-fonts) and the earlier sets
# (train, tiles-train, tiles-fonts, tiles-flowers), read while gen_all.sh is still writing them.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_phase7.sh ; log: scripts/train/runs/cls7.out
exec bash "$(dirname "$0")/finetune.sh" cls7 cls CLS7 100 --cls-width m --threads 1 --seed 9 --lr 1e-3 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
