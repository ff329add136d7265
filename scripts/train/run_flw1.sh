#!/usr/bin/env bash
# Flower reader, phase 1 (24 Nov 2026): train.py flw, the classifier network (width m) on 96x72
# crops of flower and season tiles only (patches of 160 px from the scenes and the single-tile
# sets), loss over the eight flower logits, greyscale 35 %, swapped colour channels 25 %. Starts
# from the weights of the shipped model/classifier.onnx (BatchNorm frozen), AdamW lr 1e-3
# (warm-up, cosine), seed 11, 1 thread (run_phase8.sh shares the machine), wall-clock budget
# FLW1_DEADLINE_MIN (default 90), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_flw1.sh ; log: scripts/train/runs/flw1.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS/flw1"
pgrep -f "scripts/train/train.py flw .*--run $RUNS/flw1" >/dev/null && exit 0
INIT=${FLW1_INIT:-model/classifier.onnx}
if [ ! -f "$RUNS/flw1/init.onnx" ]; then
  [ -f "$INIT" ] || { echo "run_flw1.sh: $INIT not found" >&2; exit 2; }
  cp "$INIT" "$RUNS/flw1/init.onnx"
fi
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py flw --cls-width m --threads 1 --seed 11 --lr 1e-3 \
  --steps "${FLW1_STEPS:-20000}" --deadline-min "${FLW1_DEADLINE_MIN:-90}" ${FLW1_EXTEND_MIN:+--extend-min "$FLW1_EXTEND_MIN"} --ckpt-min 5 \
  --init-onnx "$RUNS/flw1/init.onnx" --run "$RUNS/flw1" --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout \
  >> "$RUNS/flw1.out" 2>&1 &
echo "flower reader phase 1 running; log: $RUNS/flw1.out"
