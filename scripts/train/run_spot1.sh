#!/usr/bin/env bash
# Flower-character spotter, phase 1 (24 Nov 2026, fourth session): train.py flw --cls-width spot
# (models.Spotter: every output cell sees a 31 px window of the 96x72 crop; cells pooled by
# log-mean-exp), its trunk started from the flower reader's first six blocks (the phase-1 reader's
# own export, runs/flw1/flowers.onnx, which was model/flowers.onnx before the spotter joined it;
# kept as runs/spot1/init.onnx; BatchNorm frozen), on flowers and seasons whose picture is often or always another
# flower's (generator 1.5.0-1.6.0 --decoy-flowers/--decoy-always sets, and the new decoy-always
# sets tiles-v18a/tiles-v18b), so that what it learns to find is the character and the numeral.
# Batch 64, AdamW lr 1e-3, seed 17, 2 threads, wall-clock budget SPOT1_DEADLINE_MIN (default 70),
# fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_spot1.sh ; log: scripts/train/runs/spot1.out
exec bash "$(dirname "$0")/spotter.sh" spot1 --init-onnx "${SPOT1_INIT:-scripts/train/runs/flw1/flowers.onnx}" 70 --threads 2 --seed 17 --lr 1e-3
