#!/usr/bin/env bash
# Every data set the shipped model was trained and evaluated on, in the order the phase-7
# trainers (run_det3.sh, run_phase7.sh) want them: the generator 1.4.0 sets first (the new
# material), then the earlier sets, then the evaluation sets. Skips finished sets, so it can be
# run again after a kill. Trainers read the sets while they are still being written.
# Usage (repo root): bash scripts/train/gen_all.sh ; log: scripts/train/runs/gen-all.out
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/train/gen_lib.sh
FL="f1,f2,f3,f4,f5,f6,f7,f8,1s"
gen train-v14     --count 1500 --seed 9 $V
gen tiles-v14f    --count 300  --seed 10 --tiles --codes $FL $V
gen val-holdout   --count 300  --seed 2 --holdout
# a second, larger held-out set (stop 33): no threshold was chosen on it
gen val-holdout-xl --count 1200 --seed 61 --holdout
gen train         --count 3000 --seed 1
gen tiles-v14     --count 120  --seed 8 --tiles $V
gen tiles-v15     --count 200  --seed 21 --tiles $V
gen tiles-v15f    --count 400  --seed 22 --tiles --codes ${FL%,1s} $V --decoy-flowers
gen tiles-v15g    --count 400  --seed 23 --tiles --codes ${FL%,1s} $V --decoy-flowers
gen train-v16     --count 1500 --seed 27 $V --decoy-flowers --ink --tile-cloths
gen tiles-v16d    --count 600  --seed 28 --tiles --codes ${FL%,1s} $V --decoy-flowers --decoy-always --ink
gen tiles-v16f    --count 400  --seed 24 --tiles --codes ${FL%,1s} $V --decoy-flowers --ink
gen tiles-v16     --count 100  --seed 25 --tiles $V --decoy-flowers --ink
gen tiles-v16b    --count 300  --seed 26 --tiles --codes 1s,1z,7z,5z $V --ink
gen tiles-v17     --count 1000 --seed 30 --tiles --codes 1s $V --ink --birds
gen tiles-v17b    --count 150  --seed 29 --tiles --codes 1s,1z,3z,7z,5z,6z,2s,9s,f2,f6 $V --ink --birds
gen tiles-v18a    --count 800  --seed 31 --tiles --codes ${FL%,1s} $V --decoy-flowers --decoy-always --ink
gen tiles-v18b    --count 800  --seed 32 --tiles --codes ${FL%,1s} $V --decoy-flowers --decoy-always
gen tiles-v19o    --count 600  --seed 33 --tiles --codes ${FL%,1s} $V --decoy-flowers --ink --ornaments
gen tiles-v19p    --count 500  --seed 34 --tiles --codes ${FL%,1s} $V --decoy-flowers --decoy-always --ink --ornaments
gen tiles-flowers --count 450  --seed 7 --tiles --extra-fonts --codes $FL
gen tiles-fonts   --count 200  --seed 5 --tiles --extra-fonts
gen tiles-train   --count 300  --seed 3 --tiles
gen tiles-holdout --count 40   --seed 4 --tiles --holdout
gen probe59-holdout --count 200 --seed 591 --tiles --holdout --codes f1,f2,f3,f4,f5,f6,f7,f8,1s  # held-out birds and flowers only (stop 59)
# photos of one tile with the table round it (stop 46), for the `scan --as-tile` path
gen tiles-loose-holdout --count 10 --seed 52 --tiles --holdout --tile-margin 0.5,2 --size 3072 --tile-size 768
gen train-grids   --count 1500 --seed 42 $V --decoy-flowers --ink --birds --tile-cloths --set-grids
gen grid-holdout  --count 120  --seed 41 --holdout --set-grids
gen train-close   --count 1200 --seed 45 $V --decoy-flowers --ink --birds --tile-cloths --close-ups
gen close-tune    --count 120  --seed 44 $V --close-ups
gen close-holdout --count 120  --seed 43 --holdout --close-ups
gen far-tune      --count 120  --seed 47 $V --far --size 3072
gen far-holdout   --count 120  --seed 46 --holdout --far --size 3072
gen val-holdout-3k --count 300  --seed 2 --holdout --size 3072
gen embed-src     --count 100  --seed 48 $V
gen train-v19     --count 1500 --seed 49 $V --decoy-flowers --ink --birds --tile-cloths --apart
gen train-v20     --count 1500 --seed 51 $V --decoy-flowers --ink --birds --tile-cloths --apart
gen apart-holdout --count 120  --seed 50 --holdout --apart
# grids of 18-48 tiles and whole sets of 60-144 in one 12 MP photo (stop 49; made by hand until stop 58)
gen grid12-holdout --count 60 --seed 73 --holdout --set-grids --size 4032
gen biggrid-holdout --count 40 --seed 71 --holdout --set-grids --grid-tiles 60,144 --size 4032
# sharp far-off photos: scenes pasted at their own resolution into frames 3x as large
emb() { local out=$1; shift; [ -f "training-data/$out/manifest.json" ] || nice -n 5 npx tsx scripts/synth/embed.ts --out "training-data/$out" "$@"; }
emb embed-tune    --from training-data/embed-src --scale 3 --seed 1
emb embed-holdout --from training-data/val-holdout --scale 3 --seed 2
echo "gen_all.sh: all sets ready"
