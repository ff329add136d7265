#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages (Debian):
# Chromium for the end-to-end tests, CJK and symbol fonts for the synthetic-data
# generator and for screenshots, and PyTorch with Pillow for the training smoke test.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
/usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || need+=(python3-torch)
# the training scripts read the generator's JPEGs with Pillow (scripts/train/data.py)
/usr/bin/python3 -c 'import PIL' >/dev/null 2>&1 || need+=(python3-pil)
# The extra CJK families are for the generator's --extra-fonts option (scripts/synth/faces.ts).
for pkg in fonts-noto-cjk fonts-wqy-zenhei fonts-arphic-ukai fonts-arphic-uming fonts-symbola fonts-dejavu-core \
  fonts-cwtex-kai fonts-cwtex-ming fonts-cwtex-fs fonts-cwtex-heib fonts-cwtex-yen fonts-cns11643-kai fonts-cns11643-sung \
  fonts-arphic-bkai00mp fonts-arphic-gkai00mp fonts-arphic-bsmi00lp fonts-arphic-gbsn00lp fonts-lxgw-wenkai fonts-hanazono \
  fonts-ipafont-mincho fonts-ipaexfont-gothic fonts-takao-gothic; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
echo "test dependencies ready: chromium $(chromium --version 2>/dev/null | awk '{print $2}'), torch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)')"
