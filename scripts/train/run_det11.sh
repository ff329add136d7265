#!/usr/bin/env bash
# Detector phase 11 (26 Nov 2026, stop 31): the finder (model/finder.onnx, detector phase 9)
# trained on, with a second set of --apart scenes (train-v20, seed 51) besides train-v19 and the
# replayed grid, close-up and earlier scenes. The shipped finder still scored some lone flowers
# just under 0.5. lr 2.5e-4, seed 11, DET11_THREADS threads (default 2), wall-clock budget
# DET11_DEADLINE_MIN (default 45), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det11.sh ; log: scripts/train/runs/det11.out
DET11_INIT=${DET11_INIT:-model/finder.onnx} exec bash "$(dirname "$0")/finetune.sh" det11 det DET11 45 --threads "${DET11_THREADS:-2}" --seed 11 --lr 2.5e-4 \
  --crop 256 --batch 16 --train training-data/train-v20 training-data/train-v19 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 --val training-data/grid-holdout --val-n 30
