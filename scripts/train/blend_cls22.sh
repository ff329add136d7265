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
. scripts/train/blend_lib.sh
for run in cls22 cls23; do wise blend_cls22.sh $run; done
$T export --det-run none --cls-run cls22w --cls-also cls23w --cls-cascade --flw-run none ${1:+--out "$1"}
