#!/usr/bin/env bash
# Phase 6: fine-tune the phase-5 classifier (runs/cls6/ckpt.pt, EMA weights; fresh AdamW and
# schedule) on all earlier sets plus three made by generator 1.4.0 (gen_v14.sh, --extra-styles
# --extra-fonts: new flower, season and bird designs, new table patterns), which the trainer
# reads while they are still being written: train-v14 (scenes, seed 9), tiles-v14f (flowers,
# seasons, bird 1s; seed 10) and tiles-v14 (all classes, seed 8). lr 1e-3 (warm-up, cosine),
# seed 8, 1 thread (the detector fine-tune of run_det2.sh shares the machine), wall-clock
# budget CLS7_DEADLINE_MIN (default 105), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_phase6.sh ; log: scripts/train/runs/cls7.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS"
if [ ! -f "$RUNS/cls6/ckpt.pt" ]; then
  echo "run_phase6.sh: $RUNS/cls6/ckpt.pt not found; train phase 5 first (run_phase5.sh)" >&2
  exit 2
fi
pgrep -f "scripts/train/train.py cls .*--run $RUNS/cls7" >/dev/null && exit 0
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py cls --cls-width m --threads 1 --seed 8 --lr 1e-3 \
  --steps "${CLS7_STEPS:-20000}" --deadline-min "${CLS7_DEADLINE_MIN:-105}" ${CLS7_EXTEND_MIN:+--extend-min "$CLS7_EXTEND_MIN"} --ckpt-min 5 \
  --init "$RUNS/cls6/ckpt.pt" --run "$RUNS/cls7" \
  --train training-data/train training-data/train-v14 \
  --tiles training-data/tiles-train training-data/tiles-fonts training-data/tiles-fonts2 training-data/tiles-flowers training-data/tiles-v14f training-data/tiles-v14 \
  --val training-data/val-holdout \
  >> "$RUNS/cls7.out" 2>&1 &
echo "phase 6 running; log: $RUNS/cls7.out"
