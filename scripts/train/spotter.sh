#!/usr/bin/env bash
# The shared body of the character-spotter recipes (run_spot1.sh, run_spot2.sh): start
# train.py flw --cls-width spot in the background on the decoy-flower sets, from a copy of the
# starting weights kept in the run folder (the original may be replaced by a later export), with a
# wall-clock budget fixed at the first start. Resumable: run the recipe again after a kill; it
# does nothing while the run is alive.
# Usage: spotter.sh NAME FLAG SOURCE DEADLINE_MIN TRAIN_ARGS...
#   NAME    run folder scripts/train/runs/NAME, log scripts/train/runs/NAME.out
#   FLAG    --init-onnx (SOURCE is an exported ONNX file) or --init (SOURCE is a checkpoint)
#   PREFIX_STEPS (default 20000), PREFIX_DEADLINE_MIN and PREFIX_TILES (the single-tile sets, one
#   string) override, PREFIX = NAME in capitals
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME=$1 FLAG=$2 SOURCE=$3 DEADLINE=$4
shift 4
RUNS=scripts/train/runs
P=$(echo "$NAME" | tr '[:lower:]' '[:upper:]')
STEPS_VAR=${P}_STEPS DEADLINE_VAR=${P}_DEADLINE_MIN TILES_VAR=${P}_TILES
TILES="training-data/tiles-v18a training-data/tiles-v18b training-data/tiles-v16d training-data/tiles-v16f training-data/tiles-v15f training-data/tiles-v15g"
TILES=${!TILES_VAR:-$TILES}
mkdir -p "$RUNS/$NAME"
pgrep -f "scripts/train/train.py flw .*--run $RUNS/$NAME( |$)" >/dev/null && exit 0
COPY=$RUNS/$NAME/init.$([ "$FLAG" = --init ] && echo pt || echo onnx)
[ -f "$COPY" ] || cp "$SOURCE" "$COPY"
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py flw --cls-width spot --batch 64 "$FLAG" "$COPY" \
  --ckpt-min 5 --min-items 300 --steps "${!STEPS_VAR:-20000}" --deadline-min "${!DEADLINE_VAR:-$DEADLINE}" \
  --train training-data/train-v16 \
  --tiles $TILES \
  --val training-data/val-holdout --run "$RUNS/$NAME" "$@" \
  >> "$RUNS/$NAME.out" 2>&1 &
echo "$NAME running; log: $RUNS/$NAME.out"
