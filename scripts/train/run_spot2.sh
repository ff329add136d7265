#!/usr/bin/env bash
# Flower-character spotter, phase 2 (24 Nov 2026, fifth session): the phase-1 spotter's EMA
# weights (runs/spot1/ckpt.pt, or SPOT2_INIT; BatchNorm stays frozen) trained on with shape
# changes (--shape 0.5, data.shape_aug: elastic warps, thicker or thinner strokes, frames), so
# that characters in unseen type faces look less new. Same data as phase 1.
# Batch 64, AdamW lr 5e-4, seed 23, SPOT2_THREADS threads (default 1), wall-clock budget
# SPOT2_DEADLINE_MIN (default 95), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_spot2.sh ; log: scripts/train/runs/spot2.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS/spot2"
pgrep -f "scripts/train/train.py flw .*--run $RUNS/spot2( |$)" >/dev/null && exit 0
[ -f "$RUNS/spot2/init.pt" ] || cp "${SPOT2_INIT:-$RUNS/spot1/ckpt.pt}" "$RUNS/spot2/init.pt"
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py flw --cls-width spot --threads "${SPOT2_THREADS:-1}" --seed 23 --lr 5e-4 --batch 64 --shape 0.5 --init "$RUNS/spot2/init.pt" \
  --ckpt-min 5 --min-items 300 --steps "${SPOT2_STEPS:-20000}" --deadline-min "${SPOT2_DEADLINE_MIN:-95}" \
  --train training-data/train-v16 \
  --tiles training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v16d training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g \
  --val training-data/val-holdout --run "$RUNS/spot2" \
  >> "$RUNS/spot2.out" 2>&1 &
echo "spot2 running; log: $RUNS/spot2.out"
