#!/usr/bin/env bash
# Detector, phase 8 (25 Nov 2026, ninth session): fine-tunes detector phase 6 (model/detector.onnx;
# BatchNorm frozen) with train-close added: generator 1.9.0 --close-ups scenes, a few tiles of a
# hand or grid photographed from close by, each 14-40 % of the photo's width (the earlier scenes
# stop at 12 %; phase 6 found only 0.71 of the tiles of the held-out close-holdout set on its own).
# 320 px crops so that a close-up tile fits whole. lr 5e-4, seed 8, DET8_THREADS threads
# (default 2), wall-clock budget DET8_DEADLINE_MIN (default 55), fixed at the first start.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det8.sh ; log: scripts/train/runs/det8.out
exec bash "$(dirname "$0")/finetune.sh" det8 det DET8 55 --threads "${DET8_THREADS:-2}" --seed 8 --lr 5e-4 \
  --crop 320 --batch 12 --train training-data/train-close training-data/train-grids training-data/train-v16 training-data/train-v14 training-data/train --val training-data/close-tune --val-n 40
