#!/usr/bin/env bash
# Detector, phase 10 (26 Nov 2026): phase 9 again (run_det9.sh: detector phase 6 fine-tuned with
# the --apart scenes of train-v19 and the earlier scenes) at half its learning rate (2.5e-4) and
# a 40-minute budget, to move less far from phase 6: phase 9 found more lone tiles on
# apart-holdout but read val-holdout worse. Seed 10, DET10_THREADS threads (default 2), budget
# DET10_DEADLINE_MIN (default 40), fixed at the first start. Resumable: run it again after a kill.
# Usage (repo root): bash scripts/train/run_det10.sh ; log: scripts/train/runs/det10.out
exec bash "$(dirname "$0")/finetune.sh" det10 det DET10 40 --threads "${DET10_THREADS:-2}" --seed 10 --lr 2.5e-4 \
  --crop 256 --batch 16 --train training-data/train-v19 training-data/train-grids training-data/train-close training-data/train-v16 training-data/train-v14 --val training-data/grid-holdout --val-n 30
