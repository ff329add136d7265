#!/usr/bin/env bash
# Phase 3 of the shipped classifier: continue from the EMA weights of phase 2 (runs/cls2)
# with the extra-font single-tile set (training-data/tiles-fonts, generated with
# `--tiles --extra-fonts --seed 5 --count 200`) added to the training data, so the
# classifier sees numerals and honours in 16 more CJK type families. Resumable.
# Usage (repo root): bash scripts/train/run_phase3.sh   (after runs/cls2 has finished)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
until grep -q "exported" "$RUNS/cls2.out" 2>/dev/null; do sleep 15; done
[ -f training-data/tiles-fonts/manifest.json ] || nice -n 5 npx tsx scripts/synth/generate.ts \
  --out training-data/tiles-fonts --count 200 --seed 5 --tiles --extra-fonts --workers 2
pgrep -f "scripts/train/train.py cls .*--run $RUNS/cls3" >/dev/null && exit 0
nohup nice -n 10 /usr/bin/python3 scripts/train/train.py cls --threads 2 --seed 3 --lr 1e-3 \
  --steps "${CLS3_STEPS:-4000}" ${CLS3_DEADLINE_MIN:+--deadline-min "$CLS3_DEADLINE_MIN"} \
  --init "$RUNS/cls2/ckpt.pt" --run "$RUNS/cls3" \
  --train training-data/train --tiles training-data/tiles-train training-data/tiles-fonts --val training-data/val-holdout \
  >> "$RUNS/cls3.out" 2>&1 &
echo "phase 3 running; log: $RUNS/cls3.out"
