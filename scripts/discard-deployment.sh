#!/usr/bin/env bash
# Discards a throwaway server's deployment once the server has stopped: the sandboxes it left
# running for its next process (found by the deployment label, the hash of its data dir), the
# workspace tmpfs it kept mounted, and the data dir itself. A server's own stop keeps all three
# by design (sessions outlive restarts); tests and benchmarks that are done with one need this.
set -uo pipefail
dir="${1:?usage: discard-deployment.sh <data dir> [--keep-dir]}"
deployment=$(printf %s "$dir" | sha256sum | cut -c1-16)
left=$(docker ps -aq --filter label=dev.codeinterp.managed=true --filter "label=dev.codeinterp.deployment=$deployment" 2>/dev/null || true)
if [ -n "$left" ]; then
  echo "$left" | xargs docker rm -f >/dev/null 2>&1 || true
fi
bash "$(dirname "$0")/unmount-under.sh" "$dir" || true
[ "${2:-}" = "--keep-dir" ] || rm -rf "$dir" || true
