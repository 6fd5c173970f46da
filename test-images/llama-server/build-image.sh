#!/usr/bin/env bash
# Builds the llama-server test image offline: a Debian sid rootfs from packages.txt by mmdebstrap,
# imported into Docker. The test model is not in the image: the tests generate it (make-model.py).
# Tagged by a hash of its inputs, so a build is skipped when the tag already exists. Prints the
# image tag on stdout.
# Test fixture only: the product never runs this image.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
log() { echo "[llama-image] $*" >&2; }

suite=sid
hash=$(cat "$here/packages.txt" "$here/build-image.sh" | sha256sum | cut -c1-16)
tag="codeinterp-test-llama:$hash"

if docker image inspect "$tag" >/dev/null 2>&1; then
  log "up to date: $tag"
  echo "$tag"
  exit 0
fi

log "building $tag with mmdebstrap from Debian $suite"
packages=$(grep -v '^\s*#' "$here/packages.txt" | grep -v '^\s*$' | paste -sd, -)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The mirror here serves a frozen snapshot of sid whose Release file has expired: accept it.
mmdebstrap --variant=essential --quiet \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  --include="$packages" \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
  "$suite" "$work/rootfs.tar" >&2
docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  "$work/rootfs.tar" "$tag" >/dev/null
echo "$tag"
