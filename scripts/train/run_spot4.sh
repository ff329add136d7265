#!/usr/bin/env bash
# Flower-character spotter, phase 4 (29 Nov 2026, stop 55): the shipped spotter (imported from
# model/flowers.onnx, `train.py import --init-onnx model/flowers.onnx --init-member -1 --run
# scripts/train/runs/spot1 --cls-width spot`; BatchNorm stays frozen) trained on with the
# generator 1.15.0 --ornaments sets (tiles-v19o, tiles-v19p: flowers and seasons drawing a
# procedural ornament unrelated to their name) beside the decoy-flower sets, so that a plant it has
# never seen (held-out sets' dense line-art orchids and chrysanthemums, read as the spring) counts
# for nothing and the character and numeral decide. Batch 64, AdamW lr 4e-4, seed 37, 2 threads,
# wall-clock budget SPOT4_DEADLINE_MIN (default 60), fixed at the first start. Resumable.
# Usage (repo root): bash scripts/train/run_spot4.sh ; log: scripts/train/runs/spot4.out
SPOT4_TILES=${SPOT4_TILES:-training-data/tiles-v19o training-data/tiles-v19p training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g} \
  exec bash "$(dirname "$0")/spotter.sh" spot4 --init "${SPOT4_INIT:-scripts/train/runs/spot1/ckpt.pt}" 60 --threads 2 --seed 37 --lr 4e-4
