#!/usr/bin/env bash
# Generator 1.17.0 set (29 Nov 2026, stop 59): single flowers and seasons, half of the glyph sets
# the Symbola glyphs with their pictures shuffled among the eight (--swap-art), for flower reader
# phase 17 and character spotter phase 7 (run_flw17.sh, run_spot7.sh).
# Usage (repo root): bash scripts/train/gen_v117.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/train/gen_lib.sh
gen tiles-v22 --count 500 --seed 54 --tiles --codes f1,f2,f3,f4,f5,f6,f7,f8 $V --ink --decoy-flowers --swap-art
