#!/usr/bin/env bash
# Detector, phase 9 (26 Nov 2026): fine-tunes detector phase 6 (model/detector.onnx; BatchNorm
# frozen) with train-v19 added: generator 1.11.0 --apart scenes, whose flowers and spare
# face-down tiles lie one by one round the hand (hand.ts scatterApart). Phase 6 gave a lone flower
# on an unseen cloth a score of 0.17 and missed lone face-down tiles. The grid and close-up scenes
# it was trained on are replayed (this run had the first 500 and 300 of them on disk). lr 5e-4,
# seed 9, DET9_THREADS threads (default 2), wall-clock budget DET9_DEADLINE_MIN (default 60, as
# run: 8185 steps), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det9.sh ; log: scripts/train/runs/det9.out
exec bash "$(dirname "$0")/finetune.sh" det9 det DET9 60 --threads "${DET9_THREADS:-2}" --seed 9 --lr 5e-4 \
  --crop 256 --batch 16 --train training-data/train-v19 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 --val training-data/grid-holdout --val-n 30
