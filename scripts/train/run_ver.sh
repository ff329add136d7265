#!/usr/bin/env bash
# The tile verifier (26 Nov 2026, stop 33; see the model card): verifier.py's two phases, then
# the export to model/verifier.onnx.
#   phase 1 (runs/ver1): the classifier network from classifier phase 12 (the shipped
#     model/classifier2.onnx, imported; BatchNorm frozen) with a new two-way head; 500 scenes of
#     each training scene set, the shipped detector's false finds mined at 0.15; AdamW lr 5e-4,
#     seed 5, 2 threads, budget 55 min (the shipped run was stopped at its step-2796 checkpoint,
#     27 min in, to start phase 2 sooner: VER1_DEADLINE_MIN=27 comes close).
#   phase 2 (runs/ver2): phase 1 trained on with three in ten of the tile crops plain-faced
#     (blank white dragons, face-down tiles: phase 1 took some for cloth), lr 3e-4, seed 6,
#     2 threads, budget 32 min (5697 steps).
# Resumable: run it again after a kill (each phase keeps its own deadline).
# Usage (repo root): bash scripts/train/run_ver.sh ; logs: scripts/train/runs/ver1.out, ver2.out
set -euo pipefail
cd "$(dirname "$0")/../.."
R=scripts/train/runs
PY=/usr/bin/python3
mkdir -p "$R"
[ -f "$R/cls12/ckpt.pt" ] || $PY scripts/train/train.py import --init-onnx model/classifier2.onnx --cls-width m --run "$R/cls12"
$PY scripts/train/verifier.py train --run "$R/ver1" --init "$R/cls12/ckpt.pt" --per-set 500 --deadline-min "${VER1_DEADLINE_MIN:-55}" --threads 2 --seed 5 >> "$R/ver1.out" 2>&1
$PY scripts/train/verifier.py train --run "$R/ver2" --init "$R/ver1/ckpt.pt" --per-set 500 --deadline-min "${VER2_DEADLINE_MIN:-32}" --threads 2 --seed 6 --lr 3e-4 --plain-share 0.3 >> "$R/ver2.out" 2>&1
$PY scripts/train/verifier.py export --run "$R/ver2" --out model/verifier.onnx
