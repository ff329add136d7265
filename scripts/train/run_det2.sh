#!/usr/bin/env bash
# Detector fine-tune (23 Nov 2026): starts from the shipped model/detector.onnx (its training
# checkpoints were not kept; onnx_weights.py reads the folded weights back, BatchNorm frozen),
# fresh AdamW, lr 1e-3 (warm-up, cosine), seed 2, 1 thread, wall-clock budget DET2_DEADLINE_MIN
# (default 115), fixed at the first start. Data: training-data/train plus training-data/train-v14
# (generator 1.4.0 --extra-styles, seed 9: new table patterns), read while it is still being
# written. Resumable: run it again after a kill (it resumes from runs/det2/ckpt.pt).
# Usage (repo root): bash scripts/train/run_det2.sh ; log: scripts/train/runs/det2.out
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=scripts/train/runs
mkdir -p "$RUNS"
pgrep -f "scripts/train/train.py det .*--run $RUNS/det2" >/dev/null && exit 0
INIT=${DET2_INIT:-model/detector.onnx}
if [ ! -f "$RUNS/det2/ckpt.pt" ] && [ ! -f "$INIT" ]; then
  echo "run_det2.sh: $INIT not found" >&2
  exit 2
fi
# keep a copy of the starting weights: model/detector.onnx is replaced when this run is exported
[ -f "$RUNS/det2/init.onnx" ] || { mkdir -p "$RUNS/det2"; cp "$INIT" "$RUNS/det2/init.onnx"; }
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py det --threads 1 --seed 2 --lr 1e-3 \
  --steps "${DET2_STEPS:-20000}" --deadline-min "${DET2_DEADLINE_MIN:-115}" ${DET2_EXTEND_MIN:+--extend-min "$DET2_EXTEND_MIN"} \
  --init-onnx "$RUNS/det2/init.onnx" --run "$RUNS/det2" --crop 256 --batch 16 \
  --train training-data/train training-data/train-v14 --val training-data/val-holdout --val-n 40 \
  >> "$RUNS/det2.out" 2>&1 &
echo "detector fine-tune running; log: $RUNS/det2.out"
