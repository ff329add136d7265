#!/usr/bin/env bash
# Classifier phase 7 (24 Nov 2026): fine-tunes the shipped phase-5 model/classifier.onnx
# (onnx_weights.py reads the folded weights back; BatchNorm frozen; a fresh checkout has no
# runs/ checkpoints) with a fresh AdamW, lr 1e-3 (warm-up, cosine), seed 9, 1 thread (the detector
# fine-tune of run_det3.sh shares the machine), wall-clock budget CLS7_DEADLINE_MIN (default 100),
# fixed at the first start. Data: the generator 1.4.0 sets (train-v14 scenes, tiles-v14f flowers,
# seasons and bird 1s, tiles-v14 all classes; --extra-styles --extra-fonts) and the earlier sets
# (train, tiles-train, tiles-fonts, tiles-flowers), read while gen_all.sh is still writing them.
# Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_phase7.sh ; log: scripts/train/runs/cls7.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS/cls7"
pgrep -f "scripts/train/train.py cls .*--run $RUNS/cls7" >/dev/null && exit 0
INIT=${CLS7_INIT:-model/classifier.onnx}
if [ ! -f "$RUNS/cls7/init.onnx" ]; then
  [ -f "$INIT" ] || { echo "run_phase7.sh: $INIT not found" >&2; exit 2; }
  cp "$INIT" "$RUNS/cls7/init.onnx"
fi
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py cls --cls-width m --threads 1 --seed 9 --lr 1e-3 \
  --steps "${CLS7_STEPS:-20000}" --deadline-min "${CLS7_DEADLINE_MIN:-100}" ${CLS7_EXTEND_MIN:+--extend-min "$CLS7_EXTEND_MIN"} --ckpt-min 5 \
  --init-onnx "$RUNS/cls7/init.onnx" --run "$RUNS/cls7" --min-items 300 \
  --train training-data/train-v14 training-data/train \
  --tiles training-data/tiles-v14f training-data/tiles-v14 training-data/tiles-flowers training-data/tiles-fonts training-data/tiles-train \
  --val training-data/val-holdout \
  >> "$RUNS/cls7.out" 2>&1 &
echo "classifier phase 7 running; log: $RUNS/cls7.out"
