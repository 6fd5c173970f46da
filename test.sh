#!/usr/bin/env bash
# Runs every test against the real parts: the runner's own suite (on the host and inside the
# sandbox image), the Maven suites against the real Docker engine with runc and runsc (the store,
# REST, WebSocket and restart tests once more on a throwaway PostgreSQL 15), then the browser suite
# (Debian's Chromium driven by playwright-core) against the real server on SQLite, started with the
# defaults a user gets: gVisor (runsc), which setup-host.sh registers.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup-host.sh
image=$(bash sandbox-images/build-image.sh)
export CODEINTERP_IMAGE="$image"

echo "== runner tests (host python)"
python3 -m unittest discover -s sandbox-images/runner/tests -t sandbox-images/runner
echo "== local runtime's Python copies of shared rules (host python)"
python3 -m unittest discover -s pyodide-assets/src/test/python
echo "== runner tests (inside the sandbox image, with numpy/pandas/matplotlib)"
docker run --rm --network none -v "$PWD/sandbox-images/runner:/r:ro" -w /r -e HOME=/tmp -e PYTHONDONTWRITEBYTECODE=1 "$image" \
  python3 -m unittest discover -s /r/tests -t /r

echo "== PostgreSQL for the store's second pass (scripts/postgres.sh)"
pg_dir=$(mktemp -d /tmp/codeinterp-pg.XXXXXX)
trap 'bash scripts/postgres.sh stop "$pg_dir"' EXIT
eval "$(bash scripts/postgres.sh start "$pg_dir")"

echo "== Maven suites (the store, REST, WebSocket and restart tests twice: on SQLite, then on PostgreSQL)"
mvn -B verify -Dskip.postgres.tests=false -Dpostgres.test.url="$POSTGRES_URL" \
  -Dpostgres.test.user="$POSTGRES_USER" -Dpostgres.test.password.file="$POSTGRES_PASSWORD_FILE"
bash scripts/postgres.sh stop "$pg_dir"
trap - EXIT

echo "== cluster: three nodes, each in its own network namespace with its own engine, PostgreSQL, HAProxy (scripts/cluster.sh)"
cluster_keys=$(mktemp /tmp/codeinterp-cluster-keys.XXXXXX)
key_of() { sed -n 's/^key .*: //p' <<<"$1"; }
cluster_key=$(java -jar server/target/app/codeinterp-server.jar new-key cluster-test 200)
quota_key=$(java -jar server/target/app/codeinterp-server.jar new-key cluster-quota 3)
{ tail -1 <<<"$cluster_key"; tail -1 <<<"$quota_key"; } > "$cluster_keys"
chmod 644 "$cluster_keys"
trap 'bash scripts/cluster.sh down; rm -f "$cluster_keys"' EXIT
front=$(CODEINTERP_API_KEYS="$cluster_keys" bash scripts/cluster.sh up 3 | tail -1)
CLUSTER_FRONT="$front" CLUSTER_KEY=$(key_of "$cluster_key") CLUSTER_QUOTA_KEY=$(key_of "$quota_key") \
  mvn -B -pl server surefire:test -Dtest=ClusterFrontDoorTest -Dsurefire.failIfNoSpecifiedTests=false
# it skips itself without a cluster: here every one of its tests must have run
grep -q 'tests="6" errors="0" skipped="0" failures="0"' server/target/surefire-reports/TEST-dev.codeinterp.server.cluster.ClusterFrontDoorTest.xml
bash scripts/cluster.sh down
rm -f "$cluster_keys"
trap - EXIT

echo "== browser suite"
bash scripts/setup-browser.sh
(cd e2e-playwright && npm ci --no-audit --no-fund --silent)
data=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CODEINTERP_PORT=$port CODEINTERP_HOST=127.0.0.1 CODEINTERP_DATA_DIR="$data" \
  java @server/jvm.options -jar server/target/app/codeinterp-server.jar > "$data/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; bash scripts/discard-deployment.sh "$data"' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
  sleep 0.5
done
(cd e2e-playwright && CODEINTERP_URL="http://127.0.0.1:$port" CODEINTERP_DATA_DIR="$data" npm test) || { tail -50 "$data/server.log"; exit 1; }
