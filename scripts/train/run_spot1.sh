#!/usr/bin/env bash
# Flower-character spotter, phase 1 (24 Nov 2026, fourth session): train.py flw --cls-width spot
# (models.Spotter: every output cell sees a 31 px window of the 96x72 crop; cells pooled by
# log-mean-exp), its trunk started from the flower reader's first six blocks (the phase-1 reader's
# own export, runs/flw1/flowers.onnx, which was model/flowers.onnx before the spotter joined it;
# kept as runs/spot1/init.onnx; BatchNorm frozen), on flowers and seasons whose picture is often or always another
# flower's (generator 1.5.0-1.6.0 --decoy-flowers/--decoy-always sets, and the new decoy-always
# sets tiles-v18a/tiles-v18b), so that what it learns to find is the character and the numeral.
# Batch 64, AdamW lr 1e-3, seed 17, 2 threads, wall-clock budget SPOT1_DEADLINE_MIN (default 70),
# fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_spot1.sh ; log: scripts/train/runs/spot1.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS/spot1"
pgrep -f "scripts/train/train.py flw .*--run $RUNS/spot1( |$)" >/dev/null && exit 0
[ -f "$RUNS/spot1/init.onnx" ] || cp "${SPOT1_INIT:-$RUNS/flw1/flowers.onnx}" "$RUNS/spot1/init.onnx"
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py flw --cls-width spot --threads 2 --seed 17 --lr 1e-3 --batch 64 --init-onnx "$RUNS/spot1/init.onnx" \
  --ckpt-min 5 --min-items 300 --steps "${SPOT1_STEPS:-20000}" --deadline-min "${SPOT1_DEADLINE_MIN:-70}" \
  --train training-data/train-v16 \
  --tiles training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v16d training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g \
  --val training-data/val-holdout --run "$RUNS/spot1" \
  >> "$RUNS/spot1.out" 2>&1 &
echo "spot1 running; log: $RUNS/spot1.out"
