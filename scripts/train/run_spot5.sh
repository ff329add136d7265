#!/usr/bin/env bash
# Flower-character spotter, phase 5 (29 Nov 2026, stop 55): beside phase 4 (run_spot4.sh), the
# same start (the shipped spotter, runs/spot1/ckpt.pt) and sets, with shape changes 0.3 and
# small-tile resampling 0.3 (val-holdout's misread flowers are 34-129 px and blurred), seed 41, one
# thread, so that the two can be compared and averaged (`train.py export --spot-also`).
# Wall-clock budget SPOT5_DEADLINE_MIN (default 60), fixed at the first start. Resumable.
# Usage (repo root): bash scripts/train/run_spot5.sh ; log: scripts/train/runs/spot5.out
SPOT5_TILES=${SPOT5_TILES:-training-data/tiles-v19o training-data/tiles-v19p training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g} \
  exec bash "$(dirname "$0")/spotter.sh" spot5 --init "${SPOT5_INIT:-scripts/train/runs/spot1/ckpt.pt}" 60 --threads 1 --seed 41 --lr 4e-4 --shape 0.3 --lowres 0.3
