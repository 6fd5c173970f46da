# Sourced by the image build scripts (sandbox-images/, test-images/llama-server/): images tagged by a
# hash of their inputs, so a build runs only when an input changed, and minimal Debian rootfs images
# built offline by mmdebstrap. The caller defines log() (its own prefix) and runs under set -euo pipefail.

# The shared recipe (this file) is an input of every image built with it.
image_cache_script="${BASH_SOURCE[0]}"

# content_hash FILE...: 16 hex digits of the files' contents, this helper's included; prints it.
content_hash() {
  cat "$@" "$image_cache_script" | sha256sum | cut -c1-16
}

# image_exists TAG: whether Docker already has TAG.
image_exists() {
  docker image inspect "$1" >/dev/null 2>&1
}

# exit_if_built TAG: when Docker has TAG, says so, prints TAG and ends the calling script.
exit_if_built() {
  if image_exists "$1"; then
    log "up to date: $1"
    echo "$1"
    exit 0
  fi
}

# package_list FILE: the package names in FILE (one a line, # comments and blank lines skipped), comma-separated.
package_list() {
  grep -v '^\s*#' "$1" | grep -v '^\s*$' | paste -sd, -
}

# build_rootfs_image TAG SUITE PACKAGES_FILE [MMDEBSTRAP_ARG...]: a Debian SUITE rootfs with the packages
# in PACKAGES_FILE, imported into Docker as TAG. The extra arguments go after the exclusions (so a
# path-include can bring a file back) and before the last hook, which empties apt's caches.
build_rootfs_image() {
  local tag=$1 suite=$2 packages_file=$3
  shift 3
  local work
  work=$(mktemp -d)
  trap "rm -rf '$work'" EXIT
  # Docs, man pages and locales are excluded: they double the image size and nothing reads them.
  mmdebstrap --variant=essential --quiet \
    --include="$(package_list "$packages_file")" \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    "$@" \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    "$suite" "$work/rootfs.tar" >&2
  docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    "$work/rootfs.tar" "$tag" >/dev/null
  rm -rf "$work"
  trap - EXIT
}
