#!/usr/bin/env bash
# Flower reader 17w and spotter 7w (29 Nov 2026, stop 59): flower reader phase 17 and spotter
# phase 7 (run_flw17.sh, run_spot7.sh: the --swap-art fine-tunes) blended with the networks they
# started from, weight BLEND_WEIGHT (default 0.5) on the fine-tune (train.py blend; WiSE-FT), and
# exported as flowers.onnx (reader 17w with spotter 7w) and flowers2.onnx (the shipped second
# reader) to OUT (default model/). SPOT=ship keeps the shipped spotter, READER=ship the shipped
# first reader.
# Not shipped: val-holdout lost three hands in the pipeline (model/HISTORY.md, stop 59).
# Usage (repo root, after both fine-tunes): bash scripts/train/blend_v117.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/blend_lib.sh
shipped spot
shipped flw0
shipped flw1
[ -f "$R/spot7/ckpt.pt" ] || { echo "blend_v117.sh: $R/spot7/ckpt.pt not found; run run_spot7.sh first" >&2; exit 2; }
wise blend_v117.sh flw17
# the spotter started from a checkpoint (spotter.sh keeps its copy as init.pt), not an ONNX file
$T blend --init "$R/spot7/init.pt" --blend-with "$R/spot7/ckpt.pt" --blend-weight "${BLEND_WEIGHT:-0.5}" --run "$R/spot7w"
READER=$([ "${READER:-}" = ship ] && echo ship-flw0 || echo flw17w)
SPOTTER=$([ "${SPOT:-}" = ship ] && echo ship-spot || echo spot7w)
$T export --det-run none --cls-run none --flw-run "$READER" --flw-also ship-flw1 --flw-cascade --spot-run "$SPOTTER" --spot-weight 0.4 --spot-scales 1 0.75 ${1:+--out "$1"}
