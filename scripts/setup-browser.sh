#!/usr/bin/env bash
# Debian's Chromium for the browser tests (no browser download from elsewhere is possible here).
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "[setup-browser] /usr/bin/chromium is missing and we are not root to install it" >&2
    exit 1
  fi
  echo "[setup-browser] installing chromium" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends chromium >/dev/null
fi
