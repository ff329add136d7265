#!/usr/bin/env bash
# Train the shipped models: detector and classifier in parallel (1 thread each),
# in the background, resumable: re-running this script after a kill resumes from
# scripts/train/runs/{det,cls}/ckpt.pt (an already running trainer is left alone).
# The trainers wait for / pick up data sets that are still being generated.
# Usage (repo root): bash scripts/train/run_all.sh ; then follow scripts/train/runs/*.out
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
RUNS=scripts/train/runs
mkdir -p "$RUNS"
DET_STEPS=${DET_STEPS:-4000}
DEADLINE_MIN=${DEADLINE_MIN:-56}
CLS_STEPS=${CLS_STEPS:-4000}

running() { pgrep -f "scripts/train/train.py $1 " >/dev/null; }

running det || nohup nice -n 10 $PY scripts/train/train.py det --threads 1 --seed 1 --steps "$DET_STEPS" --deadline-min "$DEADLINE_MIN" \
  --crop 256 --batch 16 --train training-data/train --val training-data/val-holdout --val-n 40 \
  >> "$RUNS/det.out" 2>&1 &
running cls || nohup nice -n 10 $PY scripts/train/train.py cls --threads 1 --seed 1 --steps "$CLS_STEPS" --deadline-min "$DEADLINE_MIN" \
  --batch 128 --train training-data/train --tiles training-data/tiles-train --val training-data/val-holdout \
  >> "$RUNS/cls.out" 2>&1 &
echo "training in the background; logs: $RUNS/det.out $RUNS/cls.out"
