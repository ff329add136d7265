#!/usr/bin/env bash
# Detector, phase 5 (24 Nov 2026): fine-tunes detector phase 4 (model/detector.onnx; BatchNorm
# frozen) with train-v16 added: generator 1.6.0 scenes on --tile-cloths tables (patchwork and
# brick cloths of flat tile-shaped rectangles, hard negatives: phase 4 took the squares of the
# held-out checked cloth for tiles) with the --ink sets. lr 5e-4, seed 5, DET5_THREADS threads
# (default 1), wall-clock budget DET5_DEADLINE_MIN (default 55), fixed at the first start.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det5.sh ; log: scripts/train/runs/det5.out
exec bash "$(dirname "$0")/finetune.sh" det5 det DET5 55 --threads "${DET5_THREADS:-1}" --seed 5 --lr 5e-4 \
  --crop 256 --batch 16 --train training-data/train-v16 training-data/train-v14 training-data/train --val training-data/val-holdout --val-n 40
