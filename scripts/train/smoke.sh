#!/usr/bin/env bash
# CI smoke test: generate 3 scenes with the synthetic generator into a temp dir,
# run one training step of the detector and of the classifier, export both to ONNX, read the
# exports back and run one fine-tune step from each.
set -euo pipefail
cd "$(dirname "$0")/../.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
npx tsx scripts/synth/generate.ts --out "$TMP/scenes" --count 3 --seed 7 --quiet
/usr/bin/python3 scripts/train/train.py smoke --train "$TMP/scenes" --run "$TMP/run" 2>&1 | grep -v -i 'warning\|_C\._jit' || true
test -s "$TMP/run/det/detector.onnx" && test -s "$TMP/run/cls/classifier.onnx"
# the fine-tunes that start from the exported models (onnx_weights.py) ran too
test -s "$TMP/run/det-init/detector.onnx" && test -s "$TMP/run/cls-init/classifier.onnx"
echo "train smoke: ok"
