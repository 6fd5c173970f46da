#!/usr/bin/env bash
# Runs every test against the real parts: the runner's own suite (on the host and inside the
# sandbox image), then the Maven suites against the real Docker engine with runc and runsc.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup-host.sh
image=$(bash sandbox-images/build-image.sh)
export CODEINTERP_IMAGE="$image"

echo "== runner tests (host python)"
python3 -m unittest discover -s sandbox-images/runner/tests -t sandbox-images/runner
echo "== runner tests (inside the sandbox image, with numpy/pandas/matplotlib)"
docker run --rm --network none -v "$PWD/sandbox-images/runner:/r:ro" -w /r -e HOME=/tmp -e PYTHONDONTWRITEBYTECODE=1 "$image" \
  python3 -m unittest discover -s /r/tests -t /r

echo "== Maven suites"
mvn -B verify
