#!/usr/bin/env bash
# Detector, phase 6 (25 Nov 2026): fine-tunes detector phase 4 (model/detector.onnx; BatchNorm
# frozen) with train-grids added: generator 1.8.0 --set-grids scenes, sets laid out in grids of
# 18-48 tiles with rows and columns often touching (phase 4, trained on hands in one or two rows,
# found only 0.953 of the tiles of the held-out grid-holdout set, face-down tiles inside a grid
# least of all). lr 5e-4, seed 6, DET6_THREADS threads (default 2), wall-clock budget
# DET6_DEADLINE_MIN (default 60), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det6.sh ; log: scripts/train/runs/det6.out
exec bash "$(dirname "$0")/finetune.sh" det6 det DET6 60 --threads "${DET6_THREADS:-2}" --seed 6 --lr 5e-4 \
  --crop 256 --batch 16 --train training-data/train-grids training-data/train-v16 training-data/train-v14 training-data/train --val training-data/grid-holdout --val-n 40
