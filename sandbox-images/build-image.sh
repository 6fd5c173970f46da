#!/usr/bin/env bash
# Builds the sandbox image offline: a Debian rootfs from packages.txt by mmdebstrap, imported into
# Docker, then a thin layer with the runner. Both are tagged by a hash of their inputs (the shared
# scripts/image-cache.sh among them), so a build is skipped when the tag already exists. Prints the
# final image tag on stdout.
#
#   bash sandbox-images/build-image.sh           # the full image (packages.txt), also tagged codeinterp-sandbox:latest
#   bash sandbox-images/build-image.sh --slim    # python3 and the runner only (packages-slim.txt): the image
#                                                # scripts/cluster.sh loads into each node's own engine, where
#                                                # the full 1.4 GB took 34 s a node
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
log() { echo "[sandbox-image] $*" >&2; }

# shellcheck source=../scripts/image-cache.sh
. "$here/../scripts/image-cache.sh"

case "${1:-}" in
  "") packages="$here/packages.txt"; name=codeinterp-sandbox ;;
  --slim) packages="$here/packages-slim.txt"; name=codeinterp-sandbox-slim ;;
  *) echo "usage: build-image.sh [--slim]" >&2; exit 2 ;;
esac

suite=bookworm
base_hash=$(content_hash "$packages" "$here/build-image.sh")
base_tag="$name-base:$base_hash"
# Every file the runner layer copies (names too, in a fixed order): any change to the package rebuilds it.
runner_files() {
  (cd "$here/runner" && find codeinterp_runner .dockerignore -type f -not -path '*/__pycache__/*' | LC_ALL=C sort)
}
final_hash=$( (echo "$base_hash"; cat "$here/Dockerfile.runner"
  runner_files | while read -r file; do echo "$file"; cat "$here/runner/$file"; done) | sha256sum | cut -c1-16)
final_tag="$name:$final_hash"

exit_if_built "$final_tag"

if ! image_exists "$base_tag"; then
  log "building base rootfs $base_tag with mmdebstrap (about a minute)"
  build_rootfs_image "$base_tag" "$suite" "$packages" \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --customize-hook='echo "sandbox:x:1000:" >> "$1/etc/group"' \
    --customize-hook='echo "sandbox:x:1000:1000:sandbox:/workspace:/usr/sbin/nologin" >> "$1/etc/passwd"' \
    --customize-hook='mkdir -p "$1/workspace" && chown 1000:1000 "$1/workspace"'
fi

log "adding the runner: $final_tag"
docker build --quiet --build-arg "BASE=$base_tag" -f "$here/Dockerfile.runner" -t "$final_tag" "$here/runner" >/dev/null
docker tag "$final_tag" "$name:latest"
echo "$final_tag"
