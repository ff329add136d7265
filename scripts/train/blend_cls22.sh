#!/usr/bin/env bash
# Classifiers 22w and 23w (29 Nov 2026, stop 57): the weights of classifier phases 22 and 23
# (run_cls22.sh, run_cls23.sh: the cut-tile fine-tune) blended with those of the networks they
# started from (each run's init.onnx: phases 17 and 12), weight BLEND_WEIGHT (default 0.5) on the
# fine-tune (train.py blend; WiSE-FT). Phases 22 and 23 alone read cut tiles better but lost
# held-out birds on val-holdout-xl; the blend keeps most of the gain and loses fewer
# (model/HISTORY.md, stop 57). Exports classifier.onnx (22w) and classifier2.onnx (23w) to OUT
# (default model/, as `train.py export` writes).
# Usage (repo root, after both fine-tunes): bash scripts/train/blend_cls22.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
R=scripts/train/runs
for run in cls22 cls23; do
  [ -f "$R/$run/ckpt.pt" ] || { echo "blend_cls22.sh: $R/$run/ckpt.pt not found; run run_$run.sh first" >&2; exit 2; }
  /usr/bin/python3 scripts/train/train.py import --init-onnx "$R/$run/init.onnx" --init-member 0 --cls-width m --run "$R/$run-start"
  /usr/bin/python3 scripts/train/train.py blend --init "$R/$run-start/ckpt.pt" --blend-with "$R/$run/ckpt.pt" --blend-weight "${BLEND_WEIGHT:-0.5}" --run "$R/${run}w"
done
/usr/bin/python3 scripts/train/train.py export --det-run none --cls-run cls22w --cls-also cls23w --cls-cascade --flw-run none ${1:+--out "$1"}
