#!/usr/bin/env bash
# Detector, phase 7 (25 Nov 2026): phase 6 again, but gentler: from detector phase 4
# (model/detector.onnx; BatchNorm frozen), lr 2e-4 for DET7_DEADLINE_MIN (default 35) minutes,
# validated on val-holdout. Phase 6 (lr 5e-4, 60 min) found the held-out grids (recall 0.953 ->
# 0.998) but lost whole hands on val-holdout (hand exact 0.827 -> 0.787): its scores moved away
# from those the pipeline's thresholds were set for. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det7.sh ; log: scripts/train/runs/det7.out
exec bash "$(dirname "$0")/finetune.sh" det7 det DET7 35 --threads "${DET7_THREADS:-2}" --seed 7 --lr 2e-4 \
  --crop 256 --batch 16 --train training-data/train-grids training-data/train-v16 training-data/train-v14 training-data/train --val training-data/val-holdout --val-n 40
