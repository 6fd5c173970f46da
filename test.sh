#!/usr/bin/env bash
# Runs every test against the real parts: the runner's own suite (on the host and inside the
# sandbox image), the Maven suites against the real Docker engine with runc and runsc (the store,
# REST, WebSocket and restart tests once more on a throwaway PostgreSQL 15), a three-node cluster,
# then the browser suite (Debian's Chromium driven by playwright-core) against the real server on
# SQLite, started with the defaults a user gets: gVisor (runsc), which setup-host.sh registers.
#
#   ./test.sh          everything (.ci/run runs this)
#   ./test.sh --fast   the tests that need neither Docker nor a browser, in under a minute: the
#                      shared-model and web unit suites (without TeaVM), the runner's suite on the
#                      host's Python, the local runtime's Python and Node-only tests
#
# Every stage is timed and the run ends with a table of them and one line "N passed, N failed"
# over all their tests (scripts/stages.sh). Stages that share nothing run side by side, each with
# its own log, shown when it ends (TEST_SERIAL=1 runs them one after another instead):
#   - while Maven builds: the runner on the host (the sandbox images and the runner inside the image
#     run before, alone: their timing-bound tests flaked beside the build);
#   - the cluster's tests (three engines in network namespaces of their own, PostgreSQL, HAProxy)
#     beside the browser suite: the cluster is up before the browser starts and down after it ends,
#     since Chromium aborts its requests when a network interface comes or goes.
# Maven's server tests run alone: one of them restarts the host's Docker engine.
set -euo pipefail
cd "$(dirname "$0")"
case "${1:-}" in
  "") fast=false ;;
  --fast) fast=true ;;
  *) echo "usage: ./test.sh [--fast]" >&2; exit 2 ;;
esac
# shellcheck source=scripts/stages.sh
. scripts/stages.sh

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The runner's suite in `shards` processes at once: its cells mostly wait (timeouts, interrupts,
# child processes), so the shards share a core well.
runner_on_host() {
  local shard=$1 shards=$2 i=0 modules=() f
  for f in sandbox-images/runner/tests/test_*.py; do
    if [ $((i++ % shards)) = "$shard" ]; then
      modules+=("tests.$(basename "$f" .py)")
    fi
  done
  (cd sandbox-images/runner && python3 -m unittest "${modules[@]}")
}

local_python() { python3 -m unittest discover -s pyodide-assets/src/test/python; }

# The browser suite's files that need no browser nor server (the frame's module lists, the shared rules).
node_only() {
  (cd e2e-playwright && node --test tests/runtime-modules.test.js tests/shared-rules.test.js tests/snapshot-pages.test.js)
}

java_units() { mvn -B -pl shared-model,web -Punits-only test; }

if $fast; then
  stage_bg "runner (host python) 1/3" runner_on_host 0 3
  stage_bg "runner (host python) 2/3" runner_on_host 1 3
  stage_bg "runner (host python) 3/3" runner_on_host 2 3
  stage "local runtime's Python copies of shared rules" local_python
  stage "local runtime's Node-only tests" node_only
  stage "shared-model and web unit suites" java_units
  stage_join
  exit 0
fi

host_setup() {
  bash scripts/setup-host.sh
  bash scripts/setup-browser.sh # here, before stages run side by side: apt installs one thing at a time
}

images_and_runner() {
  bash sandbox-images/build-image.sh > "$STAGE_LOGS/image"
  echo "image $(cat "$STAGE_LOGS/image"); the runner's suite inside it, with numpy/pandas/matplotlib"
  docker run --rm --network none -v "$PWD/sandbox-images/runner:/r:ro" -w /r -e HOME=/tmp -e PYTHONDONTWRITEBYTECODE=1 \
    "$(cat "$STAGE_LOGS/image")" python3 -m unittest discover -s /r/tests -t /r
  echo "the cluster's slim image, ahead of its stage"
  bash sandbox-images/build-image.sh --slim
}

build() {
  mvn -B install -DskipTests
  (cd e2e-playwright && npm ci --no-audit --no-fund --silent)
}

# The server's suites: on SQLite, the engine-restart test alone after them, then the store, REST,
# WebSocket and restart tests once more on PostgreSQL.
server_tests() {
  local pg_dir pg_env
  pg_dir=$(mktemp -d /tmp/codeinterp-pg.XXXXXX)
  stage_cleanup "bash scripts/postgres.sh stop '$pg_dir'"
  pg_env=$(bash scripts/postgres.sh start "$pg_dir") # an assignment, so a failed start ends the stage
  eval "$pg_env"
  mvn -B -pl server \
    surefire:test@default-test surefire:test@engine-restart surefire:test@postgres \
    -Dskip.postgres.tests=false -Dpostgres.test.url="$POSTGRES_URL" \
    -Dpostgres.test.user="$POSTGRES_USER" -Dpostgres.test.password.file="$POSTGRES_PASSWORD_FILE"
}

cluster_up() {
  local cluster_key quota_key front keys=$STAGE_LOGS/cluster-keys
  cluster_key=$(java -jar server/target/app/codeinterp-server.jar new-key cluster-test 200)
  quota_key=$(java -jar server/target/app/codeinterp-server.jar new-key cluster-quota 3)
  { tail -1 <<<"$cluster_key"; tail -1 <<<"$quota_key"; } > "$keys"
  chmod 644 "$keys"
  key_of() { sed -n 's/^key .*: //p' <<<"$1"; }
  front=$(CODEINTERP_API_KEYS="$keys" bash scripts/cluster.sh up 3 | tail -1)
  {
    echo "CLUSTER_KEY=$(key_of "$cluster_key")"
    echo "CLUSTER_QUOTA_KEY=$(key_of "$quota_key")"
    echo "CLUSTER_FRONT=$front"
  } > "$STAGE_LOGS/cluster.env"
  grep FRONT "$STAGE_LOGS/cluster.env"
}

cluster_tests() {
  set -a
  . "$STAGE_LOGS/cluster.env"
  set +a
  mvn -B -pl server surefire:test -Dtest=ClusterFrontDoorTest -Dsurefire.failIfNoSpecifiedTests=false
  # it skips itself without a cluster: here every one of its tests must have run
  grep -q 'tests="6" errors="0" skipped="0" failures="0"' server/target/surefire-reports/TEST-dev.codeinterp.server.cluster.ClusterFrontDoorTest.xml
}

browser_suite() {
  local data port server
  data=$(mktemp -d)
  port=$(free_port)
  CODEINTERP_PORT=$port CODEINTERP_HOST=127.0.0.1 CODEINTERP_DATA_DIR="$data" \
    java @server/jvm.options -jar server/target/app/codeinterp-server.jar > "$data/server.log" 2>&1 &
  server=$!
  stage_cleanup "kill $server 2>/dev/null; wait $server 2>/dev/null; bash scripts/discard-deployment.sh '$data'"
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.5
  done
  (cd e2e-playwright && CODEINTERP_URL="http://127.0.0.1:$port" CODEINTERP_DATA_DIR="$data" npm test) \
    || { echo "the server's last lines:"; tail -50 "$data/server.log"; exit 1; }
}

stage "host: Docker engine, gVisor, Chromium" host_setup
# alone, not beside the build: its interrupt and first-import tests missed their deadlines there twice in five runs
stage "sandbox images, the runner inside the image" images_and_runner
stage_bg "runner (host python) 1/2" runner_on_host 0 2
stage_bg "runner (host python) 2/2" runner_on_host 1 2
stage_bg "local runtime's Python copies of shared rules" local_python
stage "build: Maven (no tests), the browser suite's npm ci" build
stage_join
# every later stage's servers (and the browser suite's own) run this image
CODEINTERP_IMAGE=$(cat "$STAGE_LOGS/image")
export CODEINTERP_IMAGE
stage_bg "shared-model and web unit suites" java_units
stage "server suites (SQLite, engine restart, PostgreSQL)" server_tests
stage_join
on_exit cluster "bash scripts/cluster.sh down"
stage "cluster: three nodes up (scripts/cluster.sh)" cluster_up
stage_bg "cluster: the front door's tests" cluster_tests
stage "browser suite" browser_suite
stage_join
done_exit cluster
