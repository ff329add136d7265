#!/usr/bin/env bash
# Flower-character spotter, phase 2 (24 Nov 2026, fifth session): the phase-1 spotter's EMA
# weights (runs/spot1/ckpt.pt, or SPOT2_INIT; BatchNorm stays frozen) trained on with shape
# changes (--shape 0.5, data.shape_aug: elastic warps, thicker or thinner strokes, frames), so
# that characters in unseen type faces look less new. Same data as phase 1.
# Batch 64, AdamW lr 5e-4, seed 23, SPOT2_THREADS threads (default 1), wall-clock budget
# SPOT2_DEADLINE_MIN (default 95), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_spot2.sh ; log: scripts/train/runs/spot2.out
exec bash "$(dirname "$0")/spotter.sh" spot2 --init "${SPOT2_INIT:-scripts/train/runs/spot1/ckpt.pt}" 95 --threads "${SPOT2_THREADS:-1}" --seed 23 --lr 5e-4 --shape 0.5
