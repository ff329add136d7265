# Sourced by the blend recipes (blend_cls22.sh, blend_cls25.sh, blend_flw14.sh, blend_flw18.sh, blend_v116.sh,
# blend_v117.sh), from the repo root: R (the runs folder), T (train.py), and wise SCRIPT RUN,
# which blends fine-tune RUN with the network it started from (member 0 of its init.onnx, read
# back into RUN-start), weight BLEND_WEIGHT (default 0.5) on the fine-tune (train.py blend;
# WiSE-FT), into RUNw; and shipped NAME, which reads a shipped network back from model/ into
# RUN ship-NAME once (cls2: classifier2.onnx; flw0 and spot: flowers.onnx's first reader and
# its spotter; flw1: flowers2.onnx), for an export beside a fine-tune.
R=scripts/train/runs
T="/usr/bin/python3 scripts/train/train.py"
wise() {
  local script=$1 run=$2
  [ -f "$R/$run/ckpt.pt" ] || { echo "$script: $R/$run/ckpt.pt not found; run run_$run.sh first" >&2; exit 2; }
  $T import --init-onnx "$R/$run/init.onnx" --init-member 0 --cls-width m --run "$R/$run-start"
  $T blend --init "$R/$run-start/ckpt.pt" --blend-with "$R/$run/ckpt.pt" --blend-weight "${BLEND_WEIGHT:-0.5}" --run "$R/${run}w"
}
shipped() {
  local name=$1 onnx member width
  case "$name" in
    cls2) onnx=model/classifier2.onnx member=0 width=m ;;
    flw0) onnx=model/flowers.onnx member=0 width=m ;;
    spot) onnx=model/flowers.onnx member=-1 width=spot ;;
    flw1) onnx=model/flowers2.onnx member=0 width=m ;;
    *) echo "shipped: unknown network $name" >&2; exit 2 ;;
  esac
  [ -f "$R/ship-$name/ckpt.pt" ] || $T import --init-onnx "$onnx" --init-member "$member" --cls-width "$width" --run "$R/ship-$name"
}
