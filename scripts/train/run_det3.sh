#!/usr/bin/env bash
# Detector phase 3 (24 Nov 2026): fine-tunes the shipped model/detector.onnx (onnx_weights.py reads
# the folded weights back; BatchNorm frozen) with a fresh AdamW, lr 1e-3 (warm-up, cosine), seed 3,
# 1 thread, wall-clock budget DET3_DEADLINE_MIN (default 100), fixed at the first start. Data:
# train-v14 (generator 1.4.0 --extra-styles, seed 9: seven more table patterns, new flower designs)
# and train (seed 1), read while gen_all.sh is still writing them. Resumable: run it again after a
# kill (it resumes from runs/det3/ckpt.pt).
# Usage (repo root): bash scripts/train/run_det3.sh ; log: scripts/train/runs/det3.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS/det3"
pgrep -f "scripts/train/train.py det .*--run $RUNS/det3" >/dev/null && exit 0
INIT=${DET3_INIT:-model/detector.onnx}
# keep a copy of the starting weights: model/detector.onnx is replaced when this run is exported
if [ ! -f "$RUNS/det3/init.onnx" ]; then
  [ -f "$INIT" ] || { echo "run_det3.sh: $INIT not found" >&2; exit 2; }
  cp "$INIT" "$RUNS/det3/init.onnx"
fi
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py det --threads 1 --seed 3 --lr 1e-3 \
  --steps "${DET3_STEPS:-20000}" --deadline-min "${DET3_DEADLINE_MIN:-100}" ${DET3_EXTEND_MIN:+--extend-min "$DET3_EXTEND_MIN"} \
  --init-onnx "$RUNS/det3/init.onnx" --run "$RUNS/det3" --crop 256 --batch 16 \
  --train training-data/train-v14 training-data/train --val training-data/val-holdout --val-n 40 \
  >> "$RUNS/det3.out" 2>&1 &
echo "detector phase 3 running; log: $RUNS/det3.out"
