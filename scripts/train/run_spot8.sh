#!/usr/bin/env bash
# Character spotter, phase 8 (29 Nov 2026, stop 62): the shipped spotter (runs/ship-spot, read back
# from model/flowers.onnx: train.py import --init-onnx model/flowers.onnx --init-member -1
# --cls-width spot --run scripts/train/runs/ship-spot; or SPOT8_INIT) fine-tuned with the heavy blur
# (--blur 0.3, data.blur_aug) on spotter.sh's decoy-flower sets. On the held-out Noto orchids the
# spotter reads the 蘭 that both flower readers miss (stop 62, model/HISTORY.md), but most of the
# flowers val-holdout misreads are blurred. AdamW lr 3e-4, seed 182, SPOT8_THREADS threads
# (default 2), wall-clock budget SPOT8_DEADLINE_MIN (default 40), fixed at the first start.
# Resumable: run it again after a kill. Not shipped: blended half and half with its start and mixed
# at 0.5, val-holdout lost two hands in the pipeline (model/HISTORY.md, stop 62).
# Usage (repo root): bash scripts/train/run_spot8.sh ; log: scripts/train/runs/spot8.out
exec bash "$(dirname "$0")/spotter.sh" spot8 --init "${SPOT8_INIT:-scripts/train/runs/ship-spot/ckpt.pt}" 40 --threads "${SPOT8_THREADS:-2}" --seed 182 --lr 3e-4 --blur 0.3
