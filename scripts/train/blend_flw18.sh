#!/usr/bin/env bash
# Flower reader 18w (29 Nov 2026, stop 62): flower reader phase 18 (run_flw18.sh: the heavy-blur
# fine-tune) blended with the reader it started from, weight BLEND_WEIGHT (default 0.5) on the
# fine-tune (train.py blend; WiSE-FT), and exported as flowers.onnx (reader 18w with the shipped
# character spotter) and flowers2.onnx (the shipped second reader) to OUT (default model/).
# Not shipped: val-holdout 0.8767 at w 0.5, 0.8733 at w 1 (model/HISTORY.md, stop 62).
# Usage (repo root, after run_flw18.sh): bash scripts/train/blend_flw18.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/blend_lib.sh
shipped spot
shipped flw1
wise blend_flw18.sh flw18
$T export --det-run none --cls-run none --flw-run flw18w --flw-also ship-flw1 --flw-cascade --spot-run ship-spot --spot-weight 0.4 --spot-scales 1 0.75 ${1:+--out "$1"}
