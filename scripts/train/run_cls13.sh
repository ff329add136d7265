#!/usr/bin/env bash
# Classifier, phase 13 (24 Nov 2026, seventh session): phase 12 (its export
# runs/cls12/classifier.onnx, or CLS13_INIT; BatchNorm frozen) trained on with the shape changes,
# on the phase-12 data plus the decoy-flower sets and the patchwork-cloth scenes (tiles-v18a,
# tiles-v18b, tiles-v16d, tiles-v15f, tiles-v15g, train-v16), seed 41, lr 3e-4: a second
# classifier that has seen more, to average with phase 7 in place of phase 12.
# CLS13_THREADS threads (default 1), budget CLS13_DEADLINE_MIN (default 90). Resumable.
# Usage (repo root): bash scripts/train/run_cls13.sh ; log: scripts/train/runs/cls13.out
export CLS13_INIT=${CLS13_INIT:-scripts/train/runs/cls12/classifier.onnx}
exec bash "$(dirname "$0")/finetune.sh" cls13 cls CLS13 90 --cls-width m --threads "${CLS13_THREADS:-1}" --seed 41 --lr 3e-4 --shape 0.5 --ckpt-min 5 --min-items 300 \
  --train training-data/train-v14 training-data/train training-data/train-v16 \
  --tiles training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v16d training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v17 training-data/tiles-v17b training-data/tiles-v16 training-data/tiles-v16b training-data/tiles-v16f training-data/tiles-v15 training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout
