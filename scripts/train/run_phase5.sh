#!/usr/bin/env bash
# Phase 5: fine-tune the phase-4 classifier (runs/cls4/ckpt.pt, EMA weights; fresh AdamW and
# schedule) with one more single-tile set aimed at its weakest classes: flowers, seasons and
# the bird 1s, 450 crops each in all training fonts (training-data/tiles-flowers, seed 7,
# `generate.ts --codes`). lr 1e-3 (warm-up, cosine), seed 6, 2 threads, wall-clock budget
# CLS6_DEADLINE_MIN (default 105), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_phase5.sh ; log: scripts/train/runs/cls6.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS"
if [ ! -f "$RUNS/cls4/ckpt.pt" ]; then
  echo "run_phase5.sh: $RUNS/cls4/ckpt.pt not found; train phase 4 first (run_phase4.sh)" >&2
  exit 2
fi
if [ ! -f training-data/tiles-flowers/manifest.json ]; then
  nice -n 5 npx tsx scripts/synth/generate.ts --out training-data/tiles-flowers --count 450 --seed 7 \
    --tiles --extra-fonts --codes f1,f2,f3,f4,f5,f6,f7,f8,1s --workers 2 >> "$RUNS/gen-tiles-flowers.out" 2>&1
fi
pgrep -f "scripts/train/train.py cls .*--run $RUNS/cls6" >/dev/null && exit 0
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py cls --cls-width m --threads 2 --seed 6 --lr 1e-3 \
  --steps "${CLS6_STEPS:-20000}" --deadline-min "${CLS6_DEADLINE_MIN:-105}" ${CLS6_EXTEND_MIN:+--extend-min "$CLS6_EXTEND_MIN"} --ckpt-min 5 \
  --init "$RUNS/cls4/ckpt.pt" --run "$RUNS/cls6" \
  --train training-data/train --tiles training-data/tiles-train training-data/tiles-fonts training-data/tiles-fonts2 training-data/tiles-flowers \
  --val training-data/val-holdout \
  >> "$RUNS/cls6.out" 2>&1 &
echo "phase 5 running; log: $RUNS/cls6.out"
