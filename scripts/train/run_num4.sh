#!/usr/bin/env bash
# Numeral reader 4 (30 Nov 2026, stop 64): numerals.py --renderer, the flower faces of the
# generator's scene and single-flower sets labelled by the numeral they print, from the shipped
# flower reader 1 (scripts/train/runs/ship-flw0, `train.py import --init-onnx model/flowers.onnx
# --init-member 0 --run scripts/train/runs/ship-flw0 --cls-width m`; BatchNorm frozen), its head
# folded. AdamW lr 3e-4, batch 64, seed 191, 2 threads, 45 minutes (3409 steps). Resumable: run it
# again after a kill; it does nothing while the run is alive.
# Not kept: offline it moved the flower mix by a few flowers either way (model/HISTORY.md, stop 64).
# Usage (repo root): bash scripts/train/run_num4.sh ; log: scripts/train/runs/num4.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN=scripts/train/runs/num4
pgrep -f "numerals.py train --renderer --run $RUN( |$)" >/dev/null && exit 0
mkdir -p "$RUN"
nohup nice -n 5 /usr/bin/python3 scripts/train/numerals.py train --renderer --run "$RUN" \
  --init scripts/train/runs/ship-flw0/ckpt.pt --deadline-min 45 --threads 2 --seed 191 --lr 3e-4 --batch 64 --ckpt-min 6 \
  --train training-data/train-v20 training-data/train-v19 training-data/train-v14 training-data/train-v16 \
  --tiles training-data/tiles-v22 training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g training-data/tiles-v14f \
  --val training-data/val-holdout >> "$RUN.out" 2>&1 &
echo "num4 running; log: $RUN.out"
