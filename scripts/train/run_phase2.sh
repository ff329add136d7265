#!/usr/bin/env bash
# Phase 2 of the shipped classifier: continue from the EMA weights of the phase-1 run
# (runs/cls) with a fresh optimiser and a second, lower cosine cycle. Resumable like run_all.sh.
# Usage (repo root): bash scripts/train/run_phase2.sh   (after runs/cls has finished)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
until grep -q "exported" "$RUNS/cls/log.txt" 2>/dev/null; do sleep 15; done
pgrep -f "scripts/train/train.py cls .*--run $RUNS/cls2" >/dev/null && exit 0
nohup nice -n 10 /usr/bin/python3 scripts/train/train.py cls --threads 2 --seed 2 --lr 1e-3 \
  --steps "${CLS2_STEPS:-4000}" ${CLS2_DEADLINE_MIN:+--deadline-min "$CLS2_DEADLINE_MIN"} \
  --init "$RUNS/cls/ckpt.pt" --run "$RUNS/cls2" \
  --train training-data/train --tiles training-data/tiles-train --val training-data/val-holdout \
  >> "$RUNS/cls2.out" 2>&1 &
echo "phase 2 running; log: $RUNS/cls2.out"
