#!/usr/bin/env bash
# Detector phase 4 (24 Nov 2026): fine-tunes the shipped phase-3 model/detector.onnx with tiles cut
# by a training crop's edge taken as targets from 50 % inside (data.MIN_VISIBLE, as the generator
# labels them; phase 3 and earlier used 60 %), fresh AdamW, lr 1e-3 (warm-up, cosine), seed 4,
# 1 thread, wall-clock budget DET4_DEADLINE_MIN (default 95), fixed at the first start. Data:
# train-v14 and train. It ran beside run_phase8.sh and run_flw1.sh (three processes on two cores).
# Resumable: run it again after a kill. Overrides: DET4_INIT, DET4_STEPS, DET4_EXTEND_MIN.
# Usage (repo root): bash scripts/train/run_det4.sh ; log: scripts/train/runs/det4.out
exec bash "$(dirname "$0")/finetune.sh" det4 det DET4 95 --threads 1 --seed 4 --lr 1e-3 \
  --crop 256 --batch 16 --train training-data/train-v14 training-data/train --val training-data/val-holdout --val-n 40
