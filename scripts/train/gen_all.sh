#!/usr/bin/env bash
# Every data set in recipes/datasets.json (training and evaluation sets), each skipped once its
# manifest.json exists, so it can be run again after a kill. Same as `npm run train -- data all`.
# Usage (repo root): bash scripts/train/gen_all.sh [SET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHONPATH=scripts/train exec /usr/bin/python3 -m mahjong_train data "${@:-all}"
