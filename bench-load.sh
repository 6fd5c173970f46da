#!/usr/bin/env bash
# Over 300 lines: every load scenario shares one server start, deadline and clean-up.
# The load benchmark of issue 9: figures, never a test (nothing asserts on them).
# Each scenario gets its own server (the real jar, loopback only, a throwaway data dir, the
# settings it needs), runs under a hard deadline, then the server is stopped and its mounts removed.
#
#   ./bench-load.sh [busy] [busy-pool] [idle] [roundtrip] [roundtrip-busy] [restart] [suspend] [template] [packages] [cluster]
#   (no argument: all)
#
#   busy       SESSIONS clients (200) create a session at once, then each runs `n += 1; n`
#              every INTERVAL s (2) for DURATION s (60); server pool POOL_SIZE (2)
#   busy-pool  the same with a warm pool of BIG_POOL (32): what a bigger pool buys
#   idle       IDLE sessions (1000) opened IDLE_CREATORS (64) at a time with MAX_SESSIONS=IDLE,
#              held SETTLE s (10), then memory, the IDLE+1th create, and closing them all
#   roundtrip  REST vs WebSocket `1+1` on one session, ROUND_TRIPS (200) each, and the pieces of a
#              REST round trip measured apart; then GAP_ROUNDS (20) more after INTERVAL idle each
#   roundtrip-busy  the same while BACKGROUND users (SESSIONS) run the busy loop beside it
#   restart    RESTART_SESSIONS (100) sessions each hold a variable; the server is stopped with
#              RESTART_SIGNAL (TERM; or KILL) and started again on the same data dir: how many kept
#              their variables, and the time from the new process's start until each answers
#   suspend    (always on runsc) one session fresh and one holding ~50 MB suspended and resumed
#              RESUME_ROUNDS (10) times: disk while suspended, resume time; then SUSPEND_SESSIONS (200)
#              sessions suspended at once and used again at once: failed cells, lost variables; with
#              SUSPEND_HELD (0: skipped; the issue's figure is 2000) that many made and suspended SUSPEND_WAVE (25) at a
#              time and held: their disk, the server's memory, 50 of them picked at random used again
#   template   (always on runsc) once with TEMPLATE=none, once with TEMPLATE=pydata: FIRST_CELL_SESSIONS (10)
#              sessions' first cell `import pandas as pd; pd.DataFrame(...)`, a sandbox's memory, and
#              CREATES (200, fewer when they would not fit in memory) creates at once: time and CPU per create
#   packages   PACKAGE (is-odd) of PACKAGE_LANGUAGE (javascript) installed in PACKAGE_SESSIONS (5) fresh
#              sessions in turn, from an empty cache: the first install cold (fetched), the rest cached
#   cluster    (issue 26; scripts/cluster.sh's clusters, not this script's server; one cluster at a time on a
#              machine) a cluster of CLUSTER_NODES (3): CLUSTER_SESSIONS (300) clients create a session through
#              its front door at once and run busy's loop; then one session's `1+1` ROUND_TRIPS times straight
#              to its node and through the front door, taking turns; the cluster down, the same load on a
#              cluster of one node through its front door; a table of both. Nodes get pool POOL_SIZE each and
#              an API key (minted here, quota CLUSTER_SESSIONS + 10); `down` runs on any exit
#
# Scale and runtime from the environment, e.g. SESSIONS=20 DURATION=20 IDLE=30 RUNTIME=runc ./bench-load.sh;
# RUNTIME unset (and CODEINTERP_RUNTIME too) leaves the servers their default, gVisor's runsc where the
# engine has it, else runc: each scenario's lines name the runtime the server chose and how.
# DATABASE=postgres keeps each scenario's store in a fresh database of a throwaway PostgreSQL 15
# (scripts/postgres.sh, started for the run and stopped after); DATABASE=both runs every scenario on
# SQLite and then on PostgreSQL, so the figures sit side by side; sqlite (the default) as before.
# POSTGRES_URL_PARAMS is appended to each PostgreSQL URL as its query, e.g. the driver's session
# settings: POSTGRES_URL_PARAMS='options=-c%20synchronous_commit%3Doff'.
# WARM_CELLS=N runs N cells on one session before busy starts, to measure a server whose JIT is warm.
# HEALTHZ_EVERY=1 (s) samples /healthz; 0 leaves it alone, to see what the sampling itself costs.
# JITTER=1 starts each user's loop at a random point of its first interval; by default users that
# got their sessions together send their first cells together (the issue's clients start at one moment).
# Each user then waits INTERVAL after each answer, as a script's sleep(2) or a load tool's think time
# (k6, Locust) does; SCHEDULE=fixed keeps a fixed schedule instead, so users whose sessions came in
# the same millisecond send every cell in the same millisecond for the whole run.
# REST_CLIENT=own (default) gives each busy user its own kept-alive HTTP/1.1 connection, used on its
# own thread; REST_CLIENT=jdk sends every user's cells through one shared JDK HttpClient, whose
# hand-offs cost the two cores ~3x the CPU per request (the roundtrip scenario shows both).
# KEEP_SERVER_LOG=/path/prefix keeps each scenario's server log as /path/prefix.<scenario>.
# QUIET_LOAD (1.5): each part waits (up to 5 min) for the 1-minute load average to fall to it; "off" skips that.
# Deadlines: CREATE_DEADLINE (180 s, busy creates), IDLE_DEADLINE (900 s, idle creates).
# BENCH_API_KEY: sent with creates, for when CODEINTERP_API_KEYS in the environment makes the servers require keys.
# CODEINTERP_IMAGE picks the image (default: the one sandbox-images/build-image.sh builds);
# other CODEINTERP_* settings in the environment reach the servers as they are.
set -euo pipefail
cd "$(dirname "$0")"

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(busy busy-pool idle roundtrip roundtrip-busy restart suspend template packages cluster)
for s in "${scenarios[@]}"; do
  case "$s" in busy|busy-pool|idle|roundtrip|roundtrip-busy|restart|suspend|template|packages|cluster) ;;
    *) echo "unknown scenario '$s' (busy, busy-pool, idle, roundtrip, roundtrip-busy, restart, suspend, template, packages, cluster)" >&2; exit 2 ;; esac
done

export SESSIONS=${SESSIONS:-200} DURATION=${DURATION:-60} INTERVAL=${INTERVAL:-2} IDLE=${IDLE:-1000}
export IDLE_CREATORS=${IDLE_CREATORS:-64} SETTLE=${SETTLE:-10} ROUND_TRIPS=${ROUND_TRIPS:-200}
export CREATE_DEADLINE=${CREATE_DEADLINE:-180} IDLE_DEADLINE=${IDLE_DEADLINE:-900} JITTER=${JITTER:-0} HEALTHZ_EVERY=${HEALTHZ_EVERY:-1}
export WARM_CELLS=${WARM_CELLS:-0} GAP_ROUNDS=${GAP_ROUNDS:-20} REST_CLIENT=${REST_CLIENT:-own} SCHEDULE=${SCHEDULE:-after-answer}
export RESTART_SESSIONS=${RESTART_SESSIONS:-100} RESTART_SIGNAL=${RESTART_SIGNAL:-TERM}
export SUSPEND_SESSIONS=${SUSPEND_SESSIONS:-200} RESUME_ROUNDS=${RESUME_ROUNDS:-10} SUSPEND_HELD=${SUSPEND_HELD:-0} SUSPEND_WAVE=${SUSPEND_WAVE:-25}
export FIRST_CELL_SESSIONS=${FIRST_CELL_SESSIONS:-10} CREATES=${CREATES:-200}
CLUSTER_SESSIONS=${CLUSTER_SESSIONS:-300}
CLUSTER_NODES=${CLUSTER_NODES:-3}
BACKGROUND_USERS=${BACKGROUND:-$SESSIONS}
RUNTIME=${RUNTIME:-${CODEINTERP_RUNTIME:-}}
DATABASE=${DATABASE:-sqlite}
case "$DATABASE" in sqlite) databases=(sqlite) ;; postgres) databases=(postgres) ;; both) databases=(sqlite postgres) ;;
  *) echo "DATABASE must be sqlite, postgres or both, got '$DATABASE'" >&2; exit 2 ;; esac
POOL_SIZE=${POOL_SIZE:-2}
BIG_POOL=${BIG_POOL:-32}

log() { echo "[bench-load] $*" >&2; }

bash scripts/setup-host.sh
# the cluster's nodes load the slim image themselves (cluster.sh): only this script's own servers need the full one
image=${CODEINTERP_IMAGE:-}
if [ -z "$image" ] && [ -n "$(printf '%s\n' "${scenarios[@]}" | grep -vx cluster)" ]; then
  image=$(bash sandbox-images/build-image.sh)
fi

# Build when a source or pom changed since the last build (the reactor resolves our own modules;
# nothing is installed into ~/.m2). The classpath file doubles as the build's time stamp.
classpath_file=server/target/bench-classpath.txt
if [ ! -f server/target/app/codeinterp-server.jar ] || [ ! -f "$classpath_file" ] \
   || [ ! -f server/target/test-classes/dev/codeinterp/server/bench/LoadBenchmark.class ] \
   || [ -n "$(find . \( -name node_modules -o -name target -o -name .git \) -prune -o -newer "$classpath_file" -type f \
              \( -path '*/src/*' -o -name pom.xml \) -print -quit)" ]; then
  log "building"
  mvn -q -B -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
  touch "$classpath_file"
fi
classpath="server/target/test-classes:server/target/classes:$(cat "$classpath_file")"

server=""
data=""
# Stops this script's server (its sessions' sandboxes outlive it, by design), then removes them,
# unmounts and deletes its data dir.
stop_server() {
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null || true
    for _ in $(seq 1 240); do kill -0 "$server" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
  if [ -n "$data" ]; then
    [ -z "${KEEP_SERVER_LOG:-}" ] || cp "$data/server.log" "$KEEP_SERVER_LOG.${name:-scenario}" 2>/dev/null || true
    # every step may fail (the engine restarted under us); none may stop the cleanup (set -e holds in traps)
    bash scripts/discard-deployment.sh "$data" || true
    data=""
  fi
}
pg_dir=""
stop_postgres() {
  [ -z "$pg_dir" ] || bash scripts/postgres.sh stop "$pg_dir" || true
  pg_dir=""
}
cluster_up=""
cluster_files=()
# `down` whenever a cluster may be up, a failed `up` included (it is safe to repeat)
stop_cluster() {
  [ -z "$cluster_up" ] || bash scripts/cluster.sh down >&2 || true
  cluster_up=""
  [ ${#cluster_files[@]} -eq 0 ] || rm -f "${cluster_files[@]}"
}
trap 'stop_server; stop_postgres; stop_cluster' EXIT
trap 'exit 130' INT TERM
if [ "$DATABASE" != sqlite ]; then
  pg_dir=$(mktemp -d /tmp/codeinterp-bench-pg.XXXXXX)
  eval "$(bash scripts/postgres.sh start "$pg_dir")"
fi
store=sqlite

# the settings that put a scenario's store where $store says: nothing for SQLite, a fresh database for PostgreSQL
store_settings() {
  [ "$store" = postgres ] || return 0
  local db
  db=bench_$(date +%s%N)
  echo "CODEINTERP_DATABASE_URL=$(bash scripts/postgres.sh createdb "$pg_dir" "$db")${POSTGRES_URL_PARAMS:+?$POSTGRES_URL_PARAMS}"
  echo "CODEINTERP_DATABASE_USER=$POSTGRES_USER"
  echo "CODEINTERP_DATABASE_PASSWORD_FILE=$POSTGRES_PASSWORD_FILE"
}

# Waits (up to 5 min) until the 1-minute load average is at most QUIET_LOAD (1.5; "off" skips it): a
# part that starts in the tail of the one before (200 sandboxes being removed) measures that tail too,
# and with DATABASE=both it was always PostgreSQL's part that did.
wait_for_quiet() {
  [ "${QUIET_LOAD:-1.5}" != off ] || return 0
  local t0=$SECONDS
  while [ $((SECONDS - t0)) -lt 300 ] && awk -v max="${QUIET_LOAD:-1.5}" '{ exit !($1 > max) }' /proc/loadavg; do
    sleep 5
  done
  echo "# waited $((SECONDS - t0)) s for the load average to fall to ${QUIET_LOAD:-1.5}: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# run_scenario NAME LABEL CLIENT_SCENARIO DEADLINE_SECONDS [CODEINTERP_X=value ...]
run_scenario() {
  local name=$1 label=$2 client=$3 deadline=$4
  shift 4
  wait_for_quiet
  data=$(mktemp -d /tmp/codeinterp-bench.XXXXXX)
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  local stored=() runtime_set=()
  mapfile -t stored < <(store_settings)
  [ -z "$RUNTIME" ] || runtime_set=(CODEINTERP_RUNTIME="$RUNTIME")
  env CODEINTERP_HOST=127.0.0.1 CODEINTERP_PORT="$port" CODEINTERP_DATA_DIR="$data" CODEINTERP_IMAGE="$image" \
      "${runtime_set[@]}" "${stored[@]}" "$@" \
      java @server/jvm.options ${SERVER_JAVA_OPTS:-} -jar server/target/app/codeinterp-server.jar > "$data/server.log" 2>&1 &
  server=$!
  local up=0
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && { up=1; break; }
    kill -0 "$server" 2>/dev/null || break
    sleep 0.5
  done
  if [ "$up" != 1 ]; then
    echo "!! $name: the server did not come up; its log ends:"; tail -20 "$data/server.log"
    stop_server
    return
  fi
  # let the warm pool fill, so every scenario starts from the state a user would meet
  local t0=$SECONDS pool="?"
  for _ in $(seq 1 360); do
    pool=$(curl -s "http://127.0.0.1:$port/healthz" | python3 -c 'import json,sys; p=json.load(sys.stdin)["pool"]; print(p["ready"], "/", p["target"])' || echo "?")
    [ "${pool% / *}" = "${pool#* / }" ] && break
    sleep 0.5
  done
  local chosen
  chosen=$(curl -s "http://127.0.0.1:$port/healthz" | python3 -c 'import json,sys; h=json.load(sys.stdin); print(h["runtime"], (h.get("runtime_choice") or {}).get("chosen_by", "?"))' || echo "? ?")
  label=${label//@runtime@/${chosen% *}}
  echo "# $name on $store: runtime ${chosen% *} (chosen by ${chosen#* }), server up, warm pool $pool ready after $((SECONDS - t0)) s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  local status=0
  BENCH_URL="http://127.0.0.1:$port" BENCH_SERVER_PID="$server" BENCH_DATA_DIR="$data" BENCH_LABEL="$label [$store]" \
    timeout --kill-after=10 "$deadline" \
    java -cp "$classpath" -Dcodeinterp.log.level=WARN dev.codeinterp.server.bench.LoadBenchmark "$client" \
    || status=$?
  if [ "$status" != 0 ]; then
    echo "!! $name ended with status $status; the server's log ends:"; tail -20 "$data/server.log"
  fi
  stop_server
  echo
}

# cluster_load NODES FILE_OF_KEYS KEY TABLE: brings a cluster of NODES up (with the key), runs busy's load through its
# front door, and with more than one node the front door's round trip against a node's own; then `down`.
cluster_load() {
  local count=$1 keys=$2 key=$3 table=$4
  local cluster_dir=${CLUSTER_DIR:-/run/codeinterp-cluster} front pids="" urls="" node chosen status=0
  log "cluster of $count: up"
  cluster_up=1
  front=$(env CODEINTERP_API_KEYS="$keys" CODEINTERP_POOL_SIZE="$POOL_SIZE" ${RUNTIME:+CODEINTERP_RUNTIME="$RUNTIME"} \
    bash scripts/cluster.sh up "$count" | tail -1)
  for node in $(seq 1 "$count" | sed 's/^/n/'); do
    pids+=${pids:+,}$(cat "$cluster_dir/$node/server.pid")
    urls+=${urls:+,}$node=$(bash scripts/cluster.sh url "$node")
  done
  chosen=$(curl -s "$front/healthz" | python3 -c 'import json,sys; h=json.load(sys.stdin); print(h["runtime"], (h.get("runtime_choice") or {}).get("chosen_by", "?"))' || echo "? ?")
  echo "# cluster of $count node(s): front door $front, nodes $urls, runtime ${chosen% *} (chosen by ${chosen#* }), pool $POOL_SIZE a node, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  local run=(env BENCH_URL="$front" BENCH_API_KEY="$key" BENCH_SERVER_PID="$pids" BENCH_DATA_DIR="${CLUSTER_DATA:-/var/lib/codeinterp-cluster}"
             SESSIONS="$CLUSTER_SESSIONS" CLUSTER_TABLE="$table" CLUSTER_NODE_URLS="$urls")
  # --foreground: the client stays in this script's process group, so a Ctrl-C ends it at once and the
  # EXIT trap takes the cluster down (in a group of its own, timeout would keep it running to its end)
  "${run[@]}" BENCH_LABEL="($count node$([ "$count" = 1 ] || echo s), through the front door, ${chosen% *})" \
    timeout --foreground --kill-after=10 $((CREATE_DEADLINE + DURATION + 300)) \
    java -cp "$classpath" -Dcodeinterp.log.level=WARN dev.codeinterp.server.bench.LoadBenchmark cluster-busy || status=$?
  [ "$status" = 0 ] || echo "!! cluster-busy on $count node(s) ended with status $status"
  echo "# load average after the busy load: $(cut -d' ' -f1-3 /proc/loadavg)"
  if [ "$count" -gt 1 ]; then
    status=0
    "${run[@]}" BENCH_LABEL="($count nodes, ${chosen% *})" timeout --foreground --kill-after=10 $((CREATE_DEADLINE + 600)) \
      java -cp "$classpath" -Dcodeinterp.log.level=WARN dev.codeinterp.server.bench.LoadBenchmark cluster-front || status=$?
    [ "$status" = 0 ] || echo "!! cluster-front ended with status $status"
    echo "# load average after the round trips: $(cut -d' ' -f1-3 /proc/loadavg)"
  fi
  bash scripts/cluster.sh down >&2
  cluster_up=""
  echo
}

# The cluster scenario: CLUSTER_NODES nodes, then one, under the same load; one key for both (the
# clusters need keys: their nodes listen beyond loopback).
run_cluster() {
  local keys table minted key
  keys=$(mktemp /tmp/codeinterp-bench-keys.XXXXXX)
  table=$(mktemp /tmp/codeinterp-bench-cluster.XXXXXX)
  cluster_files+=("$keys" "$table")
  minted=$(java -jar server/target/app/codeinterp-server.jar new-key bench-cluster $((CLUSTER_SESSIONS + 10)))
  tail -1 <<<"$minted" > "$keys"
  chmod 644 "$keys"
  key=$(sed -n 's/^key .*: //p' <<<"$minted")
  cluster_load "$CLUSTER_NODES" "$keys" "$key" "$table"
  [ "$CLUSTER_NODES" = 1 ] || cluster_load 1 "$keys" "$key" "$table"
  echo "== cluster: $CLUSTER_SESSIONS sessions, a cell every $INTERVAL s for $DURATION s (create and execute: client wall time, ms)"
  { printf 'what\tcreates/s\tcreate p50 / p95\texecute p50 / p95\tsteady state p50 / p95\tfailed cells\tmachine CPU ms/cell\tsessions per node, notes\n'
    cat "$table"; } | column -t -s $'\t' -o ' | '
  echo
}

echo "# bench-load $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), runtime ${RUNTIME:-unset (the server chooses)}, image ${image:-none (the cluster nodes load the slim one)}"
echo "# $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, Docker $(docker version --format '{{.Server.Version}}'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# DATABASE=$DATABASE SESSIONS=$SESSIONS CLUSTER_SESSIONS=$CLUSTER_SESSIONS CLUSTER_NODES=$CLUSTER_NODES DURATION=$DURATION INTERVAL=$INTERVAL IDLE=$IDLE POOL_SIZE=$POOL_SIZE BIG_POOL=$BIG_POOL BACKGROUND=$BACKGROUND_USERS JITTER=$JITTER WARM_CELLS=$WARM_CELLS REST_CLIENT=$REST_CLIENT SCHEDULE=$SCHEDULE${POSTGRES_URL_PARAMS:+ POSTGRES_URL_PARAMS=$POSTGRES_URL_PARAMS}"
echo
# all clients come from one loopback address: the per-client quota must not be what stops them
per_client_busy=$(( SESSIONS > 250 ? SESSIONS : 250 ))
for s in "${scenarios[@]}"; do
 for store in "${databases[@]}"; do
  case "$s" in
    busy) run_scenario busy "(pool $POOL_SIZE, @runtime@)" busy $((CREATE_DEADLINE + DURATION + 300)) \
            CODEINTERP_POOL_SIZE="$POOL_SIZE" CODEINTERP_MAX_SESSIONS_PER_CLIENT="$per_client_busy" ;;
    busy-pool) run_scenario busy-pool "(pool $BIG_POOL, @runtime@)" busy $((CREATE_DEADLINE + DURATION + 300)) \
            CODEINTERP_POOL_SIZE="$BIG_POOL" CODEINTERP_MAX_SESSIONS_PER_CLIENT="$per_client_busy" ;;
    # per-client quota above the total, so the IDLE+1th create meets the server's limit, not this client's
    idle) run_scenario idle "(MAX_SESSIONS=$IDLE, pool $POOL_SIZE, @runtime@)" idle $((IDLE_DEADLINE + SETTLE + 1000)) \
            CODEINTERP_POOL_SIZE="$POOL_SIZE" CODEINTERP_MAX_SESSIONS="$IDLE" CODEINTERP_MAX_SESSIONS_PER_CLIENT=$((IDLE + 1)) ;;
    roundtrip) BACKGROUND=0 run_scenario roundtrip "(@runtime@)" roundtrip 660 CODEINTERP_POOL_SIZE="$POOL_SIZE" ;;
    roundtrip-busy) BACKGROUND=$BACKGROUND_USERS run_scenario roundtrip-busy "(@runtime@)" roundtrip $((CREATE_DEADLINE + 900)) \
            CODEINTERP_POOL_SIZE="$POOL_SIZE" CODEINTERP_MAX_SESSIONS_PER_CLIENT=$(( BACKGROUND_USERS + 2 > 250 ? BACKGROUND_USERS + 2 : 250 )) ;;
    restart) run_scenario restart "(@runtime@)" restart $((CREATE_DEADLINE + 700)) CODEINTERP_POOL_SIZE="$POOL_SIZE" \
            CODEINTERP_MAX_SESSIONS_PER_CLIENT=$(( RESTART_SESSIONS > 250 ? RESTART_SESSIONS : 250 )) ;;
    suspend) RUNTIME=runsc run_scenario suspend "(runsc)" suspend $((CREATE_DEADLINE + 1000 + SUSPEND_HELD)) CODEINTERP_POOL_SIZE="$POOL_SIZE" \
            CODEINTERP_MAX_SESSIONS_PER_CLIENT=$(( SUSPEND_SESSIONS + 2 > 250 ? SUSPEND_SESSIONS + 2 : 250 )) ;;
    template) for template in none pydata; do
                RUNTIME=runsc run_scenario template "(runsc, TEMPLATE=$template)" template $((CREATE_DEADLINE + 1300)) \
                  CODEINTERP_POOL_SIZE="$POOL_SIZE" CODEINTERP_TEMPLATE="$template" \
                  CODEINTERP_MAX_SESSIONS_PER_CLIENT=$(( CREATES + 20 > 250 ? CREATES + 20 : 250 ))
              done ;;
    packages) run_scenario packages "(@runtime@)" packages 660 CODEINTERP_POOL_SIZE="$POOL_SIZE" ;;
    # its clusters keep their store in their own PostgreSQL, whatever DATABASE says: once
    cluster) [ "$store" != "${databases[0]}" ] || run_cluster ;;
  esac
 done
done
