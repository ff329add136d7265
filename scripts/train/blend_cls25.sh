#!/usr/bin/env bash
# Classifier 25w (29 Nov 2026, stop 61): classifier phase 25 (run_cls25.sh: the heavy-blur
# fine-tune) blended with the network it started from, weight BLEND_WEIGHT (default 0.5) on the
# fine-tune (train.py blend; WiSE-FT), and exported as classifier.onnx with the shipped second
# classifier (classifier2.onnx, read back) to OUT (default model/).
# Not shipped: at w = 0.5, 0.75 and 1 the pipeline lost val-holdout hands or xl's (model/HISTORY.md, stop 61).
# Usage (repo root, after run_cls25.sh): bash scripts/train/blend_cls25.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/blend_lib.sh
wise blend_cls25.sh cls25
shipped cls2
$T export --det-run none --cls-run cls25w --cls-also ship-cls2 --cls-cascade --flw-run none ${1:+--out "$1"}
