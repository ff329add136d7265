#!/usr/bin/env bash
# Train the shipped models: detector and classifier in parallel (1 thread each),
# in the background, resumable (re-run this script after a kill: it resumes from
# scripts/train/runs/{det,cls}/ckpt.pt). Waits for the data sets to exist.
# Usage: bash scripts/train/run_all.sh            (from the repo root)
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
RUNS=scripts/train/runs
mkdir -p "$RUNS"
DET_STEPS=${DET_STEPS:-3200}
CLS_STEPS=${CLS_STEPS:-3000}

wait_for() { while [ ! -f "$1/manifest.json" ]; do sleep 20; done; }

wait_for training-data/train
wait_for training-data/val-holdout

if ! pgrep -f "train.py det" >/dev/null; then
  nohup nice -n 10 $PY scripts/train/train.py det --threads 1 --seed 1 --steps "$DET_STEPS" --crop 256 --batch 16 \
    --train training-data/train --val training-data/val-holdout --val-n 60 >> "$RUNS/det.out" 2>&1 &
fi
wait_for training-data/tiles-train
if ! pgrep -f "train.py cls" >/dev/null; then
  nohup nice -n 10 $PY scripts/train/train.py cls --threads 1 --seed 1 --steps "$CLS_STEPS" --batch 128 \
    --train training-data/train --tiles training-data/tiles-train --val training-data/val-holdout >> "$RUNS/cls.out" 2>&1 &
fi
