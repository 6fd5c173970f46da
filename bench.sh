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
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn dev.codeinterp.server.bench.Benchmark
