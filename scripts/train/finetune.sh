#!/usr/bin/env bash
# The shared body of the fine-tune recipes (run_det3.sh, run_phase7.sh, run_phase8.sh,
# run_flw1.sh): start train.py MODE in the background, from the weights of an exported ONNX file
# (onnx_weights.py reads them back; BatchNorm stays frozen), with a wall-clock budget fixed at
# the first start. A copy of the starting file is kept in the run folder (init.onnx), because the
# file in model/ is replaced when the run is exported. Resumable: run the recipe again after a
# kill; it does nothing while the run is alive.
# Usage: finetune.sh NAME MODE PREFIX DEADLINE_MIN TRAIN_ARGS...
#   NAME    run folder scripts/train/runs/NAME, log scripts/train/runs/NAME.out
#   MODE    det | cls | flw
#   PREFIX  environment overrides: PREFIX_INIT (the starting ONNX file; default
#           model/detector.onnx for det, model/classifier.onnx otherwise), PREFIX_STEPS (default
#           20000), PREFIX_DEADLINE_MIN (default DEADLINE_MIN), PREFIX_EXTEND_MIN (moves the
#           deadline of a resumed run that many minutes later, once)
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME=$1 MODE=$2 PREFIX=$3 DEADLINE=$4
shift 4
RUNS=scripts/train/runs
mkdir -p "$RUNS/$NAME"
pgrep -f "scripts/train/train.py $MODE .*--run $RUNS/$NAME( |$)" >/dev/null && exit 0
env_or() { local v="${PREFIX}_$1"; echo "${!v:-$2}"; }
INIT=$(env_or INIT "model/$([ "$MODE" = det ] && echo detector || echo classifier).onnx")
if [ ! -f "$RUNS/$NAME/init.onnx" ]; then
  [ -f "$INIT" ] || { echo "finetune.sh $NAME: $INIT not found" >&2; exit 2; }
  cp "$INIT" "$RUNS/$NAME/init.onnx"
fi
EXTEND=$(env_or EXTEND_MIN "")
nohup nice -n 5 /usr/bin/python3 scripts/train/train.py "$MODE" "$@" \
  --steps "$(env_or STEPS 20000)" --deadline-min "$(env_or DEADLINE_MIN "$DEADLINE")" ${EXTEND:+--extend-min "$EXTEND"} \
  --init-onnx "$RUNS/$NAME/init.onnx" --run "$RUNS/$NAME" \
  >> "$RUNS/$NAME.out" 2>&1 &
echo "$NAME running; log: $RUNS/$NAME.out"
