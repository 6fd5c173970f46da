#!/usr/bin/env bash
# Prints the performance figures (pool acquire, WebSocket round trip, cold starts, idle memory,
# naive docker run ratio) against the real Docker engine. Figures, not tests: nothing asserts on them.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup-host.sh
export CODEINTERP_IMAGE=$(bash sandbox-images/build-image.sh)
mvn -q -B install -DskipTests
mvn -q -B -pl server dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
mvn -q -B -pl server test-compile
java -cp "server/target/test-classes:server/target/classes:$(cat server/target/test-classpath.txt)" \
  -Dcodeinterp.log.level=WARN dev.codeinterp.server.bench.Benchmark

# Load scenarios (issue 9): 200 busy sessions, 1,000 idle ones, REST vs WebSocket; scale with SESSIONS=, IDLE=, RUNTIME=.
bash bench-load.sh

# Local mode's figures (Pyodide in Debian's Chromium): first result cold/warm, 1+1 round trip, bytes on the wire.
bash scripts/setup-browser.sh && (cd e2e-playwright && npm ci --no-audit --no-fund --silent)
data=$(mktemp -d) && port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CODEINTERP_PORT=$port CODEINTERP_HOST=127.0.0.1 CODEINTERP_DATA_DIR="$data" java @server/jvm.options -jar server/target/app/codeinterp-server.jar > "$data/server.log" 2>&1 &
server=$! && trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; bash scripts/discard-deployment.sh "$data"' EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
(cd e2e-playwright && CODEINTERP_URL="http://127.0.0.1:$port" node bench-local.js)
