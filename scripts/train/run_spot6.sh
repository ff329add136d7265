#!/usr/bin/env bash
# Flower-character spotter, phase 6 (29 Nov 2026, stop 55): the shipped spotter (runs/spot1, see
# run_spot4.sh) trained on crops enlarged 1.5 times (--spot-input-scale 1.5: each 96x72 crop
# resized to 144x108; the checkpoint keeps the scale, and export reads it so: ScaledSpotter), so that
# a corner character 8-12 px high spans twice as many of its cells. Its confusions are of
# characters that share a top (菊 and 蘭, 春 and 冬) at that size, which more training at the old
# scale (phases 3-5) did not cure. The phase-4 sets (with the --ornaments sets), lr 5e-4, seed 43,
# SPOT6_THREADS threads (default 2), wall-clock budget SPOT6_DEADLINE_MIN (default 70), fixed at
# the first start. Resumable: run it again after a kill (also in a later session).
# Usage (repo root): bash scripts/train/run_spot6.sh ; log: scripts/train/runs/spot6.out
SPOT6_TILES=${SPOT6_TILES:-training-data/tiles-v19o training-data/tiles-v19p training-data/tiles-v18a training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g} \
  exec bash "$(dirname "$0")/spotter.sh" spot6 --init "${SPOT6_INIT:-scripts/train/runs/spot1/ckpt.pt}" 70 --threads "${SPOT6_THREADS:-2}" --seed 43 --lr 5e-4 --spot-input-scale 1.5
