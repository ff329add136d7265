#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages (Debian):
# Chromium for the end-to-end tests, CJK and symbol fonts for the synthetic-data
# generator and for screenshots, PyTorch with Pillow for the training smoke test, and PostgreSQL
# for the event server's tests (a private cluster on 127.0.0.1:54329; see the end of this file).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
/usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || need+=(python3-torch)
# the training scripts read the generator's JPEGs with Pillow (scripts/train/data.py)
/usr/bin/python3 -c 'import PIL' >/dev/null 2>&1 || need+=(python3-pil)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
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

# A throwaway PostgreSQL cluster for the event-server tests (test/server/http.test.ts runs its
# suite on it as well as on PGlite). It listens on 127.0.0.1 only, trusts local connections, and
# lives in /tmp; the URL goes to .tmp/test-database-url, which `npm run test:all` passes on as
# TEST_DATABASE_URL.
PG_PORT=54329
PG_DIR=/tmp/mahjong-test-postgres
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_postgres() { if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "$1"; else sudo -u postgres sh -c "$1"; fi; }
if ! as_postgres "$PG_BIN/pg_ctl -D $PG_DIR status" >/dev/null 2>&1; then
  if [ ! -f "$PG_DIR/PG_VERSION" ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO rm -rf "$PG_DIR" && $SUDO install -d -o postgres -m 700 "$PG_DIR"
    as_postgres "$PG_BIN/initdb -D $PG_DIR -U postgres -A trust -E UTF8 --no-sync" >/dev/null
  fi
  as_postgres "$PG_BIN/pg_ctl -D $PG_DIR -l $PG_DIR/server.log -w -o '-p $PG_PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off' start" >/dev/null
fi
as_postgres "$PG_BIN/psql -h 127.0.0.1 -p $PG_PORT -U postgres -tAc \"SELECT 1 FROM pg_database WHERE datname = 'mahjong_test'\"" | grep -q 1 \
  || as_postgres "$PG_BIN/createdb -h 127.0.0.1 -p $PG_PORT -U postgres mahjong_test"
PG_URL_FILE="$(cd "$(dirname "$0")/.." && pwd)/.tmp/test-database-url"
mkdir -p "$(dirname "$PG_URL_FILE")" && echo "postgres://postgres@127.0.0.1:$PG_PORT/mahjong_test" > "$PG_URL_FILE"
echo "PostgreSQL for the event-server tests: $(cat "$PG_URL_FILE")"
echo "test dependencies ready: chromium $(chromium --version 2>/dev/null | awk '{print $2}'), torch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)')"
