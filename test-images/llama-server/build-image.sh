#!/usr/bin/env bash
# Builds the llama-server test image offline: a Debian sid rootfs from packages.txt by mmdebstrap,
# imported into Docker. The test model is not in the image: the tests generate it (make-model.py).
# Tagged by a hash of its inputs (the shared scripts/image-cache.sh among them), so a build is
# skipped when the tag already exists. Prints the image tag on stdout.
# Test fixture only: the product never runs this image.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
log() { echo "[llama-image] $*" >&2; }

# shellcheck source=../../scripts/image-cache.sh
. "$here/../../scripts/image-cache.sh"

suite=sid
tag="codeinterp-test-llama:$(content_hash "$here/packages.txt" "$here/build-image.sh")"

exit_if_built "$tag"

log "building $tag with mmdebstrap from Debian $suite"
# The mirror here serves a frozen snapshot of sid whose Release file has expired: accept it.
build_rootfs_image "$tag" "$suite" "$here/packages.txt" --aptopt='Acquire::Check-Valid-Until "false"'
echo "$tag"
