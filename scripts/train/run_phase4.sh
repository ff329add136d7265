#!/usr/bin/env bash
# Classifier "m" (width preset m: 380 k parameters, ~29 M multiply-adds per crop), trained
# from scratch on everything the small classifier saw in phases 1-3 plus a second
# extra-font single-tile set (training-data/tiles-fonts2, seed 6), which is generated
# while the trainer runs and read as it grows. Wall-clock budget CLS4_DEADLINE_MIN
# (default 110), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_phase4.sh ; log: scripts/train/runs/cls4.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS"
if [ ! -f training-data/tiles-fonts2/manifest.json ] && ! pgrep -f "generate.ts --out training-data/tiles-fonts2" >/dev/null; then
  nohup nice -n 12 npx tsx scripts/synth/generate.ts --out training-data/tiles-fonts2 --count 200 --seed 6 \
    --tiles --extra-fonts --workers 1 >> "$RUNS/tiles-fonts2.out" 2>&1 &
fi
pgrep -f "scripts/train/train.py cls .*--run $RUNS/cls4" >/dev/null && exit 0
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py cls --cls-width m --threads 2 --seed 4 --lr 2e-3 \
  --steps "${CLS4_STEPS:-20000}" --deadline-min "${CLS4_DEADLINE_MIN:-110}" ${CLS4_EXTEND_MIN:+--extend-min "$CLS4_EXTEND_MIN"} --ckpt-min 5 --run "$RUNS/cls4" \
  --train training-data/train --tiles training-data/tiles-train training-data/tiles-fonts training-data/tiles-fonts2 \
  --val training-data/val-holdout \
  >> "$RUNS/cls4.out" 2>&1 &
echo "phase 4 running; log: $RUNS/cls4.out"
