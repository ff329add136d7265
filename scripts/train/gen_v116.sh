#!/usr/bin/env bash
# Generator 1.16.0 sets (29 Nov 2026, stop 59): the bird and the flowers and seasons printed as
# one-ink line drawings or ink paintings (--line-art), for classifier phase 24 and flower reader
# phase 16 (run_cls24.sh, run_flw16.sh). The trainers read the sets while they grow.
# Usage (repo root): bash scripts/train/gen_v116.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/gen_lib.sh
gen tiles-v21 --count 400 --seed 52 --tiles --codes 1s,f1,f2,f3,f4,f5,f6,f7,f8,1z,2z,3z,4z,5z,6z,7z $V --ink --birds --decoy-flowers --line-art
gen train-v21 --count 800 --seed 53 $V --decoy-flowers --ink --birds --tile-cloths --line-art
