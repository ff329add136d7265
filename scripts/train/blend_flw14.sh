#!/usr/bin/env bash
# Flower readers 14w and 15w (29 Nov 2026, stop 58): the weights of flower reader phases 14 and 15
# (run_flw14.sh, run_flw15.sh) blended with those of the readers they started from (each run's
# init.onnx: reader phases 1 and 5), weight BLEND_WEIGHT (default 0.5) on the fine-tune
# (train.py blend; WiSE-FT, as blend_cls22.sh does for the classifiers). The character spotter is
# read back from flw14's init.onnx (the shipped flowers.onnx) unchanged. Exports flowers.onnx
# (14w and the spotter at two scales, weight 0.4) and flowers2.onnx (15w) to OUT (default model/,
# as `train.py export` writes). Not shipped: the cascade read val-holdout's flowers 0.8958 against
# 0.8917 but val-holdout-xl's 0.9099 against 0.9159 (flower_mix.py; model/HISTORY.md, stop 58).
# Usage (repo root, after both fine-tunes): bash scripts/train/blend_flw14.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/blend_lib.sh
for run in flw14 flw15; do wise blend_flw14.sh $run; done
$T import --init-onnx "$R/flw14/init.onnx" --init-member -1 --cls-width spot --run "$R/flw14-spot"
$T export --det-run none --cls-run none --flw-run flw14w --flw-also flw15w --flw-cascade --spot-run flw14-spot --spot-weight 0.4 --spot-scales 1 0.75 ${1:+--out "$1"}
