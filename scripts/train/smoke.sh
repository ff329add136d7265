#!/usr/bin/env bash
# CI smoke test: generate 3 scenes and a few flower tiles with the synthetic generator into a
# temp dir, run one training step of the detector, the classifier and the flower reader, export
# them to ONNX, read the exports back (the same outputs as their checkpoints) and run one
# fine-tune step from the detector's and the classifier's (the latter on large 96x72 crops), and
# one step of the tile verifier, and a blend of two classifiers' weights.
set -euo pipefail
cd "$(dirname "$0")/../.."
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
npx tsx scripts/synth/generate.ts --out "$TMP/scenes" --count 3 --seed 7 --quiet
npx tsx scripts/synth/generate.ts --out "$TMP/flowers" --count 1 --seed 7 --tiles --codes f1,f2,f3,f4,f5,f6,f7,f8 --quiet
/usr/bin/python3 scripts/train/train.py smoke --train "$TMP/scenes" --tiles "$TMP/flowers" --run "$TMP/run" > "$TMP/log" 2>&1 || { cat "$TMP/log"; exit 1; }
grep -v -i 'warning\|_C\._jit' "$TMP/log" || true
test -s "$TMP/run/det/detector.onnx" && test -s "$TMP/run/cls/classifier.onnx" && test -s "$TMP/run/flw/flowers.onnx"
# the fine-tunes that start from the exported models (onnx_weights.py) ran too
test -s "$TMP/run/det-init/detector.onnx" && test -s "$TMP/run/cls-init/classifier.onnx"
# the character spotter trained one step, and the reader + spotter export
test -s "$TMP/run/spot/flowers.onnx" && test -s "$TMP/run/flowers-mix.onnx"
# the flower readers as a cascade (export --flw-cascade): two files, checked against one graph
test -s "$TMP/run/flw-cascade/flowers.onnx" && test -s "$TMP/run/flw-cascade/flowers2.onnx"
# the numeral reader (numerals.py) trained one step, and the mix with it
test -s "$TMP/run/num/ckpt.pt" && test -s "$TMP/run/num-flw/flowers.onnx"
# two classifiers blended (train.py blend), as classifiers 22w and 23w are
test -s "$TMP/run/blend-0.25/ckpt.pt"
# the tile verifier (verifier.py) trained one step from mined crops, and exported
test -s "$TMP/run/ver/verifier.onnx"
echo "train smoke: ok"
