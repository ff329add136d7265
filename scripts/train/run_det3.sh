#!/usr/bin/env bash
# Detector phase 3 (24 Nov 2026): fine-tunes the shipped model/detector.onnx (onnx_weights.py reads
# the folded weights back; BatchNorm frozen) with a fresh AdamW, lr 1e-3 (warm-up, cosine), seed 3,
# 1 thread, wall-clock budget DET3_DEADLINE_MIN (default 100), fixed at the first start. Data:
# train-v14 (generator 1.4.0 --extra-styles, seed 9: seven more table patterns, new flower designs)
# and train (seed 1), read while gen_all.sh is still writing them. Resumable: run it again after a
# kill (it resumes from runs/det3/ckpt.pt). Overrides: DET3_INIT, DET3_STEPS, DET3_EXTEND_MIN.
# Usage (repo root): bash scripts/train/run_det3.sh ; log: scripts/train/runs/det3.out
exec bash "$(dirname "$0")/finetune.sh" det3 det DET3 100 --threads 1 --seed 3 --lr 1e-3 \
  --crop 256 --batch 16 --train training-data/train-v14 training-data/train --val training-data/val-holdout --val-n 40
