#!/usr/bin/env bash
# Builds the sandbox image offline: a Debian rootfs from packages.txt by mmdebstrap, imported into
# Docker, then a thin layer with the runner. Both are tagged by a hash of their inputs, so a build
# is skipped when the tag already exists. Prints the final image tag on stdout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
log() { echo "[sandbox-image] $*" >&2; }

suite=bookworm
base_hash=$(cat "$here/packages.txt" "$here/build-image.sh" | sha256sum | cut -c1-16)
base_tag="codeinterp-sandbox-base:$base_hash"
# Every file the runner layer copies (names too, in a fixed order): any change to the package rebuilds it.
runner_files() {
  (cd "$here/runner" && find codeinterp_runner .dockerignore -type f -not -path '*/__pycache__/*' | LC_ALL=C sort)
}
final_hash=$( (echo "$base_hash"; cat "$here/Dockerfile.runner"
  runner_files | while read -r file; do echo "$file"; cat "$here/runner/$file"; done) | sha256sum | cut -c1-16)
final_tag="codeinterp-sandbox:$final_hash"

if docker image inspect "$final_tag" >/dev/null 2>&1; then
  log "up to date: $final_tag"
  echo "$final_tag"
  exit 0
fi

if ! docker image inspect "$base_tag" >/dev/null 2>&1; then
  log "building base rootfs $base_tag with mmdebstrap (about a minute)"
  packages=$(grep -v '^\s*#' "$here/packages.txt" | grep -v '^\s*$' | paste -sd, -)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # Docs, man pages and locales are excluded: they double the image size and nothing reads them.
  mmdebstrap --variant=essential --quiet \
    --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --customize-hook='echo "sandbox:x:1000:" >> "$1/etc/group"' \
    --customize-hook='echo "sandbox:x:1000:1000:sandbox:/workspace:/usr/sbin/nologin" >> "$1/etc/passwd"' \
    --customize-hook='mkdir -p "$1/workspace" && chown 1000:1000 "$1/workspace"' \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    "$suite" "$work/rootfs.tar" >&2
  docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    "$work/rootfs.tar" "$base_tag" >/dev/null
  rm -rf "$work"
  trap - EXIT
fi

log "adding the runner: $final_tag"
docker build --quiet --build-arg "BASE=$base_tag" -f "$here/Dockerfile.runner" -t "$final_tag" "$here/runner" >/dev/null
docker tag "$final_tag" codeinterp-sandbox:latest
echo "$final_tag"
