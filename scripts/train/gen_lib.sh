# Sourced by gen_all.sh and gen_v113.sh, from the repo root: the generator command (two workers,
# niced below the trainers), the training split's extra styles and fonts (V), and gen OUT ARGS...,
# which makes training-data/OUT unless it is finished (its manifest.json written last).
G="nice -n 5 npx tsx scripts/synth/generate.ts --workers 2"
V="--extra-styles --extra-fonts"
gen() { local out=$1; shift; [ -f "training-data/$out/manifest.json" ] || $G --out "training-data/$out" "$@"; }
