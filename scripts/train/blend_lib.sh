# Sourced by the blend recipes (blend_cls22.sh, blend_cls25.sh, blend_flw14.sh, blend_flw18.sh, blend_v116.sh,
# blend_v117.sh), from the repo root: R (the runs folder), T (train.py), and wise SCRIPT RUN,
# which blends fine-tune RUN with the network it started from (member 0 of its init.onnx, read
# back into RUN-start), weight BLEND_WEIGHT (default 0.5) on the fine-tune (train.py blend;
# WiSE-FT), into RUNw.
R=scripts/train/runs
T="/usr/bin/python3 scripts/train/train.py"
wise() {
  local script=$1 run=$2
  [ -f "$R/$run/ckpt.pt" ] || { echo "$script: $R/$run/ckpt.pt not found; run run_$run.sh first" >&2; exit 2; }
  $T import --init-onnx "$R/$run/init.onnx" --init-member 0 --cls-width m --run "$R/$run-start"
  $T blend --init "$R/$run-start/ckpt.pt" --blend-with "$R/$run/ckpt.pt" --blend-weight "${BLEND_WEIGHT:-0.5}" --run "$R/${run}w"
}
