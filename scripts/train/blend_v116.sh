#!/usr/bin/env bash
# Classifier 24w and flower reader 16w (29 Nov 2026, stop 59): classifier phase 24 and flower
# reader phase 16 (run_cls24.sh, run_flw16.sh: the line-art fine-tunes) blended with the networks
# they started from (each run's init.onnx), weight BLEND_WEIGHT (default 0.5) on the fine-tune
# (train.py blend; WiSE-FT, as blend_cls22.sh). Exports classifier.onnx (24w, with the shipped
# classifier2.onnx as the cascade's second network) and flowers.onnx (reader 16w with the shipped
# spotter; the shipped flowers2.onnx as the second reader) to OUT (default model/).
# Not shipped (model/HISTORY.md, stop 59).
# Usage (repo root, after both fine-tunes): bash scripts/train/blend_v116.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/blend_lib.sh
for run in cls24 flw16; do wise blend_v116.sh $run; done
$T import --init-onnx model/classifier2.onnx --init-member 0 --cls-width m --run "$R/ship-cls2"
$T import --init-onnx "$R/flw16/init.onnx" --init-member -1 --cls-width spot --run "$R/flw16-spot"
$T import --init-onnx model/flowers2.onnx --init-member 0 --cls-width m --run "$R/ship-flw1"
$T export --det-run none --cls-run cls24w --cls-also ship-cls2 --cls-cascade --flw-run flw16w --flw-also ship-flw1 --flw-cascade --spot-run flw16-spot --spot-weight 0.4 --spot-scales 1 0.75 ${1:+--out "$1"}
