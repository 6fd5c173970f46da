#!/usr/bin/env bash
# Unmounts every mount below a directory: a server keeps its sessions' workspace tmpfs mounted
# across restarts (by design), so a throwaway server's data dir needs this once it has stopped.
set -uo pipefail
dir=$(realpath "${1:?usage: unmount-under.sh <dir>}")
awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
  umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
done
