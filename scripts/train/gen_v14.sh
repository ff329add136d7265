#!/usr/bin/env bash
# The generator 1.4.0 sets used by run_det2.sh and run_phase6.sh (--extra-styles --extra-fonts):
# scenes train-v14 (1500, seed 9), single tiles tiles-v14f (flowers, seasons and the bird 1s,
# 300 each, seed 10) and tiles-v14 (all 43 classes, 120 each, seed 8). Skips finished sets.
# Usage (repo root): bash scripts/train/gen_v14.sh ; log: scripts/train/runs/gen-v14.out
set -euo pipefail
cd "$(dirname "$0")/../.."
G="nice -n 5 npx tsx scripts/synth/generate.ts --extra-styles --extra-fonts --workers 2"
[ -f training-data/train-v14/manifest.json ] || $G --out training-data/train-v14 --count 1500 --seed 9
[ -f training-data/tiles-v14f/manifest.json ] || $G --out training-data/tiles-v14f --count 300 --seed 10 --tiles --codes f1,f2,f3,f4,f5,f6,f7,f8,1s
[ -f training-data/tiles-v14/manifest.json ] || $G --out training-data/tiles-v14 --count 120 --seed 8 --tiles
