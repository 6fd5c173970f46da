#!/usr/bin/env bash
# Brings the whole app up on a fresh Debian host: Docker engine + runsc, the sandbox image
# (rebuilt only when its inputs changed), the build, then serves on http://localhost:${CODEINTERP_PORT:-8080}.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup-host.sh || echo "[run] no Docker engine: the app starts without server mode" >&2
image=codeinterp-sandbox:latest
if docker version >/dev/null 2>&1; then
  image=$(bash sandbox-images/build-image.sh)
fi
mvn -q -B install -DskipTests
export CODEINTERP_IMAGE="${CODEINTERP_IMAGE:-$image}"
exec java @server/jvm.options -jar server/target/app/codeinterp-server.jar
