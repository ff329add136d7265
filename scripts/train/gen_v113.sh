#!/usr/bin/env bash
# The training sets of classifier phase 19 and flower reader phase 12 (stop 47), made again with
# generator 1.13.0 (tiles drawn far first by their faces' centres; HISTORY.md, stop 46) under the
# names and seeds gen_all.sh gives them, in the order the two trainers want them (they read a set
# while it is being written). Skips finished sets, so it can be run again after a kill.
# Usage (repo root): bash scripts/train/gen_v113.sh ; log: scripts/train/runs/gen-v113.out
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/train/gen_lib.sh
FL="f1,f2,f3,f4,f5,f6,f7,f8"
gen tiles-v15f    --count 400  --seed 22 --tiles --codes $FL $V --decoy-flowers
gen train-v16     --count 1500 --seed 27 $V --decoy-flowers --ink --tile-cloths
gen tiles-v16f    --count 400  --seed 24 --tiles --codes $FL $V --decoy-flowers --ink
gen train-v19     --count 1500 --seed 49 $V --decoy-flowers --ink --birds --tile-cloths --apart
gen tiles-v15g    --count 400  --seed 23 --tiles --codes $FL $V --decoy-flowers
gen train-grids   --count 1500 --seed 42 $V --decoy-flowers --ink --birds --tile-cloths --set-grids
gen tiles-v18a    --count 800  --seed 31 --tiles --codes $FL $V --decoy-flowers --decoy-always --ink
gen train-close   --count 1200 --seed 45 $V --decoy-flowers --ink --birds --tile-cloths --close-ups
gen tiles-v17b    --count 150  --seed 29 --tiles --codes 1s,1z,3z,7z,5z,6z,2s,9s,f2,f6 $V --ink --birds
gen train-v20     --count 1500 --seed 51 $V --decoy-flowers --ink --birds --tile-cloths --apart
gen tiles-v14f    --count 300  --seed 10 --tiles --codes $FL,1s $V
gen tiles-v14     --count 120  --seed 8 --tiles $V
gen tiles-flowers --count 450  --seed 7 --tiles --extra-fonts --codes $FL,1s
gen train-v14     --count 1500 --seed 9 $V
echo "gen_v113.sh: all sets ready"
