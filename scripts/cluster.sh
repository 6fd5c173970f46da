#!/usr/bin/env bash
# Over 300 lines: the cluster's up, down and each part (namespaces, engines, PostgreSQL, HAProxy, nodes) share one state directory and its helpers.
# A real codeinterp cluster on this one machine (issue 26): PostgreSQL, N nodes, HAProxy in front.
#
#   bash scripts/cluster.sh up [N]          # N nodes (default 3); prints the front URL as its last line
#   bash scripts/cluster.sh status          # nodes (namespace, address, pids, /healthz), PostgreSQL, HAProxy
#   bash scripts/cluster.sh kill NODE       # node loss: SIGKILL its server, its engine and its sandboxes
#   bash scripts/cluster.sh start NODE      # bring a killed or drained node back (engine, then server)
#   bash scripts/cluster.sh drain NODE      # SIGTERM its server (started with CODEINTERP_DRAIN_ON_STOP=true),
#                                           # wait until it has handed its sessions over and exited
#   bash scripts/cluster.sh url NODE        # the node's own URL (reachable from this host), past the front door
#   bash scripts/cluster.sh docker NODE ARG...  # the docker CLI against that node's own engine
#   bash scripts/cluster.sh down            # stop and remove everything up made; safe to repeat
#
# Node nI is a network namespace ci-nI joined to the host by a veth pair (host 10.250.I.1/24, node
# 10.250.I.2/24), with its own dockerd (own config, data-root, exec-root, containerd, socket
# /run/codeinterp-cluster/nI/docker.sock, runsc registered, no bridge, no iptables) holding the slim
# sandbox image, and the server listening on 10.250.I.2:8080 as node nI (CODEINTERP_NODE_ID,
# CODEINTERP_NODE_URL). Nodes reach each other through the host (routes for 10.250.0.0/16 only).
# PostgreSQL listens on 127.0.0.1 and on each link's host side; database and role "codeinterp",
# password auth, only from the nodes' addresses. HAProxy listens on a free 127.0.0.1 port with the
# config from scripts/cluster/haproxy-config.sh. docs/cluster-local.md says more.
#
# Environment: CLUSTER_DIR (state: pids, sockets, logs; /run/codeinterp-cluster), CLUSTER_DATA (engines'
# data, node data dirs, PostgreSQL; /var/lib/codeinterp-cluster), CLUSTER_IMAGE (a sandbox image of the
# host's engine to load into the nodes; default: build-image.sh --slim), CLUSTER_APP (the server's
# app dir; default server/target/app, copied at up), CLUSTER_FRONT_PORT (default: a free port),
# CLUSTER_JAVA_OPTS (-Xmx1g), CLUSTER_NET (first two octets, 10.250). Every CODEINTERP_* variable
# set when `up` runs is passed to all servers (e.g. CODEINTERP_POOL_SIZE=0, CODEINTERP_API_KEYS=FILE);
# the per-node ones (HOST, PORT, DATA_DIR, DOCKER_HOST, IMAGE, DATABASE_*, NODE_ID, NODE_URL) are the
# cluster's. Needs root.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log() { echo "[cluster] $*" >&2; }
die() { log "$*"; exit 1; }

state=${CLUSTER_DIR:-/run/codeinterp-cluster}
image_cache=/var/cache/codeinterp-cluster
server_port=8080
firewall_rule=(FORWARD -i ci-+ -o ci-+ -m comment --comment codeinterp-cluster -j ACCEPT)

# --- names and addresses -------------------------------------------------------------------------
node_index() { [[ "$1" =~ ^n([1-9][0-9]?)$ ]] || die "no node '$1' (nodes are n1..nN)"; echo "${BASH_REMATCH[1]}"; }
netns_of() { echo "ci-$1"; }
host_addr() { echo "$net.$(node_index "$1").1"; }
node_addr() { echo "$net.$(node_index "$1").2"; }
socket_of() { echo "$state/$1/docker.sock"; }
docker_of() { docker -H "unix://$(socket_of "$1")" "${@:2}"; }

state_value() { sed -n "s/^$1=//p" "$state/cluster.env" 2>/dev/null | tail -1; }
# a cluster that is up keeps its data and addresses where up put them, whatever the variables say now
data=$(state_value DATA || true)
data=${data:-${CLUSTER_DATA:-/var/lib/codeinterp-cluster}}
net=$(state_value NET || true)
net=${net:-${CLUSTER_NET:-10.250}}

# The nodes of the cluster that is up: n1..nN from the state file, else whatever namespaces exist.
nodes() {
  local count
  count=$(state_value NODES)
  if [ -n "$count" ]; then
    for i in $(seq 1 "$count"); do echo "n$i"; done
  else
    ip netns list 2>/dev/null | awk '{print $1}' | sed -n 's/^ci-\(n[0-9]\+\)$/\1/p' | sort -V
  fi
}


# running PID: whether the process runs. A killed one may stay a zombie for a while (this machine's
# init reaps late), and dockerd refuses to start over a pid file naming one.
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

not_running() { ! running "$1"; }

# pid_alive FILE: the pid in FILE when that process runs.
pid_alive() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$pid" ] && running "$pid" && echo "$pid"
}

# wait_for SECONDS WHAT CMD...: polls CMD every 0.2 s until it succeeds.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || { log "timed out after ${seconds}s waiting for $what"; return 1; }
    sleep 0.2
  done
}

# --- host prerequisites --------------------------------------------------------------------------
require_root() { [ "$(id -u)" = 0 ] || die "needs root (namespaces, veths, engines)"; }

install_haproxy_if_missing() {
  command -v haproxy >/dev/null 2>&1 && return
  log "installing haproxy"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends haproxy >/dev/null \
    || { apt-get update -q >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends haproxy >/dev/null; }
  # Debian's package starts its own service where it can: ours is the only HAProxy we want
  local pid
  pid=$(cat /run/haproxy.pid 2>/dev/null || true)
  if [ -n "$pid" ] && grep -qs /etc/haproxy/haproxy.cfg "/proc/$pid/cmdline"; then
    log "stopping Debian's own haproxy service"
    invoke-rc.d haproxy stop >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
  fi
}

# The server's app dir, copied so that a rebuild of the tree does not change what the nodes run.
copy_app() {
  local app=${CLUSTER_APP:-$repo/server/target/app}
  [ -f "$app/codeinterp-server.jar" ] \
    || die "no server at $app/codeinterp-server.jar: build it (mvn -q package -DskipTests) or set CLUSTER_APP"
  rm -rf "$data/app"
  cp -r "$app" "$data/app"
}

# The sandbox image for the nodes, saved once per content hash to a file each node loads. Prints its tag.
node_image() {
  local tag=${CLUSTER_IMAGE:-}
  if [ -z "$tag" ]; then
    tag=$(bash "$repo/sandbox-images/build-image.sh" --slim)
  fi
  docker image inspect "$tag" >/dev/null 2>&1 || die "the host's engine has no image $tag"
  local file="$image_cache/${tag//[:\/]/_}.tar"
  if [ ! -f "$file" ]; then
    mkdir -p "$image_cache"
    log "saving $tag to $file"
    # older saves of the same image name are stale: their tag's inputs changed
    rm -f "$image_cache/${tag%%:*}"_*.tar
    docker save "$tag" -o "$file.part"
    mv "$file.part" "$file"
  fi
  echo "$tag"
}

# --- network -------------------------------------------------------------------------------------
check_subnet_free() {
  if ip -4 route show | grep -q "^$net\." || ip -4 -br addr | grep -q " $net\."; then
    ip netns list | grep -q '^ci-n' || die "$net.0.0/16 is already in use on this host: set CLUSTER_NET"
  fi
}

# The node's namespace and its link to the host; nodes reach each other through the host.
create_link() {
  local node=$1 ns
  ns=$(netns_of "$node")
  ip netns add "$ns"
  ip link add "ci-$node" type veth peer name eth0 netns "$ns"
  ip addr add "$(host_addr "$node")/24" dev "ci-$node"
  ip link set "ci-$node" up
  ip -n "$ns" link set lo up
  ip -n "$ns" addr add "$(node_addr "$node")/24" dev eth0
  ip -n "$ns" link set eth0 up
  # the other nodes only; the node has no way out of the cluster's addresses
  ip -n "$ns" route add "$net.0.0/16" via "$(host_addr "$node")"
}

# Node-to-node traffic is forwarded by the host: allow it between the cluster's links only (the host
# engine sets FORWARD's policy to DROP), and turn forwarding on if it was off, noting that for down.
allow_forwarding() {
  iptables -C "${firewall_rule[@]}" 2>/dev/null || iptables -I "${firewall_rule[@]}"
  if [ "$(cat /proc/sys/net/ipv4/ip_forward)" = 0 ]; then
    echo 1 > /proc/sys/net/ipv4/ip_forward
    echo "IP_FORWARD_WAS=0" >> "$state/cluster.env"
  fi
}

remove_forwarding() {
  while iptables -D "${firewall_rule[@]}" 2>/dev/null; do :; done
  if [ "$(state_value IP_FORWARD_WAS)" = 0 ]; then
    echo 0 > /proc/sys/net/ipv4/ip_forward
  fi
}

# --- a node's engine -----------------------------------------------------------------------------
write_engine_config() {
  local node=$1 dir="$state/$1"
  local runsc
  runsc=$(command -v runsc) || die "runsc is not installed (scripts/setup-host.sh installs it)"
  mkdir -p "$dir/exec" "$data/$node/docker"
  # As scripts/setup-host.sh registers runsc for the host's engine; no bridge and no iptables, so the
  # engines leave networking alone (sandboxes run with network none). A containerd namespace per node
  # keeps the engines apart even where they would share a system containerd.
  cat > "$dir/daemon.json" <<EOF
{
  "data-root": "$data/$node/docker",
  "exec-root": "$dir/exec",
  "pidfile": "$dir/docker.pid",
  "hosts": ["unix://$(socket_of "$node")"],
  "containerd-namespace": "codeinterp-$node",
  "containerd-plugins-namespace": "codeinterp-$node-plugins",
  "bridge": "none",
  "iptables": false,
  "ip6tables": false,
  "ip-forward": false,
  "ip-masq": false,
  "experimental": true,
  "runtimes": {"runsc": {"path": "$runsc", "runtimeArgs": ["--network=none", "--platform=ptrace"]}}
}
EOF
}

# Starts the node's dockerd in its namespace. nsenter, not `ip netns exec`: the latter remounts /sys
# and dockerd then fails with "Devices cgroup isn't mounted".
start_engine() {
  local node=$1 dir="$state/$1"
  pid_alive "$dir/docker.pid" >/dev/null && return
  rm -f "$(socket_of "$node")" "$dir/docker.pid"
  # dockerd reuses a containerd whose pid file names a live process, a zombie included
  pid_alive "$dir/exec/containerd/containerd.pid" >/dev/null || rm -f "$dir/exec/containerd/containerd.pid"
  setsid nsenter --net="/var/run/netns/$(netns_of "$node")" -- \
    dockerd --config-file "$dir/daemon.json" >>"$dir/dockerd.log" 2>&1 </dev/null &
}

wait_for_engine() {
  wait_for 60 "$1's dockerd" docker_of "$1" version \
    || { tail -20 "$state/$1/dockerd.log" >&2; return 1; }
}

load_image() {
  local node=$1 tag=$2 started
  docker_of "$node" image inspect "$tag" >/dev/null 2>&1 && return
  started=$(date +%s%N)
  docker_of "$node" load -q -i "$image_cache/${tag//[:\/]/_}.tar" >/dev/null
  log "$node: image loaded in $((($(date +%s%N) - started) / 1000000)) ms"
}

# --- a node's server -----------------------------------------------------------------------------
# The server's environment, written once at up: the caller's CODEINTERP_* first, the node's own last.
write_server_env() {
  local node=$1 front_port=$2 image=$3 count=$4
  local hosts="127.0.0.1:$front_port,localhost:$front_port"
  for i in $(seq 1 "$count"); do hosts+=",$net.$i.2:$server_port"; done
  [ -z "${CODEINTERP_ALLOWED_HOSTS:-}" ] || hosts+=",$CODEINTERP_ALLOWED_HOSTS"
  {
    echo "PATH=$(printf %q "$PATH")"
    echo "HOME=/root"
    echo "LANG=C.UTF-8"
    local name
    while read -r name; do
      echo "$name=$(printf %q "${!name}")"
    done < <(compgen -e | grep '^CODEINTERP_' || true)
    # a node listens beyond loopback, which the server refuses without keys: these nodes are reachable
    # from this host only, so without CODEINTERP_API_KEYS they take anonymous clients
    [ -n "${CODEINTERP_API_KEYS:-}" ] || [ -n "${CODEINTERP_ALLOW_ANONYMOUS:-}" ] || echo "CODEINTERP_ALLOW_ANONYMOUS=true"
    echo "CODEINTERP_DRAIN_ON_STOP=true"
    echo "CODEINTERP_HOST=$(node_addr "$node")"
    echo "CODEINTERP_PORT=$server_port"
    echo "CODEINTERP_DATA_DIR=$data/$node/data"
    echo "CODEINTERP_DOCKER_HOST=unix://$(socket_of "$node")"
    echo "CODEINTERP_IMAGE=$image"
    echo "CODEINTERP_DATABASE_URL=jdbc:postgresql://$(host_addr "$node"):$(cat "$data/postgres/port")/codeinterp"
    echo "CODEINTERP_DATABASE_USER=codeinterp"
    echo "CODEINTERP_DATABASE_PASSWORD_FILE=$data/postgres/codeinterp.password"
    echo "CODEINTERP_ALLOWED_HOSTS=$hosts"
    echo "CODEINTERP_NODE_ID=$node"
    echo "CODEINTERP_NODE_URL=http://$(node_addr "$node"):$server_port"
    # HAProxy reaches each node from the host's side of its link: its X-Forwarded-For names the client
    echo "CODEINTERP_TRUSTED_PROXIES=$net.0.0/16"
  } | sed 's/^/export /' > "$state/$node/server.env"
}

# Starts the server in the node's namespace with only the environment of server.env; its pid is the
# java process's (bash writes $$, then nsenter and java replace it).
start_server() {
  local node=$1 dir="$state/$1"
  pid_alive "$dir/server.pid" >/dev/null && return
  # the last run's pid must not pass for this one's
  rm -f "$dir/server.pid"
  mkdir -p "$data/$node/data"
  echo "--- start $(date -Is)" >> "$dir/server.log"
  setsid env -i bash -c 'echo $$ > "$1"; . "$2"; cd "$3"; exec nsenter --net="$4" -- java $5 -jar "$6/codeinterp-server.jar"' \
    _ "$dir/server.pid" "$dir/server.env" "$data/$node/data" "/var/run/netns/$(netns_of "$node")" \
    "${CLUSTER_JAVA_OPTS:--Xmx1g}" "$data/app" >>"$dir/server.log" 2>&1 </dev/null &
  # the pid file exists once bash runs
  wait_for 5 "$node's server pid" test -s "$dir/server.pid"
}

healthz() { curl -fsS -m 2 "http://$(node_addr "$1"):$server_port/healthz"; }

# server_up NODE: /healthz answers; fails the whole wait (status 2) once the server has exited.
server_up() {
  pid_alive "$state/$1/server.pid" >/dev/null || return 2
  healthz "$1" >/dev/null 2>&1
}

wait_for_server() {
  local node=$1 deadline=$((SECONDS + 120)) status
  while true; do
    status=0
    server_up "$node" || status=$?
    [ "$status" = 0 ] && return 0
    if [ "$status" = 2 ] || [ $SECONDS -ge $deadline ]; then
      tail -30 "$state/$node/server.log" >&2
      die "$node's server $([ "$status" = 2 ] && echo exited || echo "did not answer /healthz within 120 s")"
    fi
    sleep 0.2
  done
}

# --- processes of a node -------------------------------------------------------------------------
# descendants PID...: the pids, their children, theirs, ...
descendants() {
  local all=" $* " frontier="$*" next pid child
  while [ -n "$frontier" ]; do
    next=""
    for pid in $frontier; do
      for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
        case "$all" in *" $child "*) ;; *) all+="$child "; next+=" $child" ;; esac
      done
    done
    frontier=$next
  done
  echo $all
}

# Everything of a node: what runs in its namespace (server, dockerd, containerd, shims) and all their
# descendants (the sandboxes, which have namespaces of their own).
node_processes() {
  local ns roots
  ns=$(netns_of "$1")
  roots=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
  if [ -n "$roots" ]; then descendants $roots; fi
}

# A node lost as a host is lost: every process of it at once, with SIGKILL; again for children
# forked between the listing and the kill, until none runs.
kill_node_processes() {
  local pids pid left _
  for _ in $(seq 1 50); do
    pids=$(node_processes "$1")
    left=""
    for pid in $pids; do running "$pid" && left+=" $pid"; done
    [ -n "$left" ] || return 0
    kill -KILL $left 2>/dev/null || true
    sleep 0.1
  done
  log "$1: processes still running after SIGKILL:$left"
}

# note_containers NODE: remembers the ids of the node's containers (for remove_shim_sockets).
note_containers() {
  ls "$data/$1/docker/containers" 2>/dev/null >> "$state/$1/container-ids" || true
}

# A shim killed with SIGKILL leaves its socket in containerd's shared /run/containerd/s, named by the
# sha256 of "<containerd address>/<namespace>/<container id>" (containerd's shim.SocketAddress).
remove_shim_sockets() {
  local node=$1 id hash
  sort -u "$state/$node/container-ids" 2>/dev/null | while read -r id; do
    hash=$(printf '%s' "$state/$node/exec/containerd/containerd.sock/codeinterp-$node/$id" | sha256sum | cut -c1-64)
    rm -f "/run/containerd/s/$hash"
  done
}

# Removes every container of the node's engine (a killed engine is started again for it: Docker
# then cleans its own state, cgroups and runtime directories), then stops the engine.
remove_engine() {
  local node=$1 dir="$state/$1" pid
  if [ -d "$data/$node/docker/containers" ] && [ -n "$(ls -A "$data/$node/docker/containers")" ] \
     && ! pid_alive "$dir/docker.pid" >/dev/null && [ -f "$dir/daemon.json" ]; then
    start_engine "$node"
    wait_for 30 "$node's dockerd (to clean up)" docker_of "$node" version || true
  fi
  if pid=$(pid_alive "$dir/docker.pid"); then
    local ids
    ids=$(docker_of "$node" ps -aq 2>/dev/null || true)
    [ -z "$ids" ] || docker_of "$node" rm -f $ids >/dev/null 2>&1 || true
    kill -TERM "$pid" 2>/dev/null || true
    wait_for 30 "$node's dockerd to stop" not_running "$pid" || true
  fi
}

# --- commands ------------------------------------------------------------------------------------
cmd_up() {
  local count=${1:-3}
  [[ "$count" =~ ^[1-9][0-9]?$ ]] || die "N must be 1..99, got '$count'"
  require_root
  if [ -f "$state/cluster.env" ]; then
    if pid_alive "$state/haproxy.pid" >/dev/null; then
      die "a cluster is already up ($(state_value FRONT_URL)); run 'scripts/cluster.sh down' first"
    fi
    log "taking down the stale cluster left in $state (its HAProxy is gone)"
    cmd_down
  elif ip netns list 2>/dev/null | grep -q '^ci-n[0-9]'; then
    log "taking down the namespaces of a cluster whose state is gone"
    cmd_down
  fi
  local started=$SECONDS
  # a failed up leaves nothing either (set CLUSTER_KEEP_FAILED=1 to look at it, then run down)
  trap 'up_failed $?' EXIT
  bash "$repo/scripts/setup-host.sh"
  install_haproxy_if_missing
  check_subnet_free
  mkdir -p "$state" "$data"
  printf 'NODES=%s\nNET=%s\nDATA=%s\n' "$count" "$net" "$data" > "$state/cluster.env"
  copy_app
  local image
  image=$(node_image)
  log "image for the nodes: $image ($((SECONDS - started)) s)"

  local nodes=() i
  for i in $(seq 1 "$count"); do nodes+=("n$i"); done
  for node in "${nodes[@]}"; do mkdir -p "$state/$node"; create_link "$node"; done
  allow_forwarding
  log "network: ${#nodes[@]} namespaces ci-n1..ci-n$count, nodes at $net.I.2, host at $net.I.1"

  for node in "${nodes[@]}"; do write_engine_config "$node"; start_engine "$node"; done

  local host_addrs=() node_addrs=()
  for node in "${nodes[@]}"; do host_addrs+=("$(host_addr "$node")"); node_addrs+=("$(node_addr "$node")"); done
  bash "$repo/scripts/postgres.sh" start "$data/postgres" "${host_addrs[@]}" >/dev/null
  bash "$repo/scripts/postgres.sh" add-client "$data/postgres" codeinterp "${node_addrs[@]}" >/dev/null

  local front_port=${CLUSTER_FRONT_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
  cat >> "$state/cluster.env" <<EOF
NODES=$count
FRONT_PORT=$front_port
FRONT_URL=http://127.0.0.1:$front_port
IMAGE=$image
DATABASE_URL=jdbc:postgresql://127.0.0.1:$(cat "$data/postgres/port")/codeinterp
DATABASE_USER=codeinterp
DATABASE_PASSWORD_FILE=$data/postgres/codeinterp.password
EOF
  # one node after the other: a node's server starts while the next node loads its image
  for node in "${nodes[@]}"; do
    wait_for_engine "$node"
    load_image "$node" "$image"
    write_server_env "$node" "$front_port" "$image" "$count"
    start_server "$node"
  done
  for node in "${nodes[@]}"; do wait_for_server "$node"; done
  log "servers answer /healthz ($((SECONDS - started)) s)"

  start_haproxy
  trap - EXIT
  log "cluster of $count up in $((SECONDS - started)) s"
  cmd_status >&2
  echo "http://127.0.0.1:$front_port"
}

up_failed() {
  [ "$1" != 0 ] || return 0
  if [ "${CLUSTER_KEEP_FAILED:-}" = 1 ]; then
    log "up failed; left as it was for a look (logs in $state); 'scripts/cluster.sh down' removes it"
  else
    log "up failed; taking down what it started"
    cmd_down
  fi
}

start_haproxy() {
  local pairs=() count front_port
  count=$(state_value NODES)
  front_port=$(state_value FRONT_PORT)
  for i in $(seq 1 "$count"); do pairs+=("n$i=$net.$i.2:$server_port"); done
  bash "$here/cluster/haproxy-config.sh" "127.0.0.1:$front_port" "$state" "${pairs[@]}" > "$state/haproxy.cfg"
  haproxy -c -q -f "$state/haproxy.cfg"
  # in the foreground of its own session, logging to stdout: its log is the file
  setsid haproxy -db -f "$state/haproxy.cfg" >>"$state/haproxy.log" 2>&1 </dev/null &
  # in the foreground it writes no pid file; setsid ran it in place, so $! is HAProxy
  echo $! > "$state/haproxy.pid"
  wait_for 10 "the front door" curl -fsS -m 2 "http://127.0.0.1:$front_port/healthz"
}

# haproxy_servers: "backend/server status" lines from HAProxy's stats socket.
haproxy_servers() {
  python3 - "$state/haproxy.sock" <<'PY' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"show stat\n")
out = b""
while chunk := s.recv(65536):
    out += chunk
for line in out.decode().splitlines()[1:]:
    f = line.split(",")
    if len(f) > 17 and f[1] not in ("FRONTEND", "BACKEND"):
        print(f"{f[0]}/{f[1]} {f[17]}")
PY
}

haproxy_sees_up() {
  local servers
  servers=$(haproxy_servers)
  echo "$servers" | grep -qx "pool/$1 UP" && echo "$servers" | grep -qx "sessions/$1 UP"
}

cmd_status() {
  [ -f "$state/cluster.env" ] || { log "no cluster is up (no $state/cluster.env)"; return 1; }
  local front pid servers
  front=$(state_value FRONT_URL)
  servers=$(haproxy_servers || true)
  printf '%-5s %-6s %-14s %-18s %-18s %-12s %s\n' node netns address dockerd server healthz "haproxy (pool, sessions)"
  for node in $(nodes); do
    local engine server health addr
    addr=$(node_addr "$node"):$server_port
    engine=$( (pid=$(pid_alive "$state/$node/docker.pid") && echo "$pid running") || echo "down")
    server=$( (pid=$(pid_alive "$state/$node/server.pid") && echo "$pid running") || echo "down")
    health=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://$addr/healthz" 2>/dev/null || true)
    [ "$health" != 000 ] && [ -n "$health" ] || health="no answer"
    printf '%-5s %-6s %-14s %-18s %-18s %-12s %s, %s\n' "$node" "$(netns_of "$node")" "$addr" "$engine" "$server" "$health" \
      "$(echo "$servers" | awk -v s="pool/$node" '$1 == s {print $2}')" \
      "$(echo "$servers" | awk -v s="sessions/$node" '$1 == s {print $2}')"
  done
  local pg_pid
  pg_pid=$(head -1 "$data/postgres/data/postmaster.pid" 2>/dev/null || true)
  if [ -n "$pg_pid" ] && kill -0 "$pg_pid" 2>/dev/null; then
    echo "postgres  pid $pg_pid, $(state_value DATABASE_URL) (also on $(cut -d, -f2- "$data/postgres/listen")), user codeinterp"
  else
    echo "postgres  down"
  fi
  if pid=$(pid_alive "$state/haproxy.pid"); then
    echo "haproxy   pid $pid, config $state/haproxy.cfg, log $state/haproxy.log"
  else
    echo "haproxy   down"
  fi
  echo "front     $front"
}

cmd_kill() {
  local node=${1:?usage: cluster.sh kill NODE}
  require_root
  node_index "$node" >/dev/null
  [ -d "$state/$node" ] || die "no node $node in this cluster"
  local pids
  pids=$(node_processes "$node")
  kill_node_processes "$node"
  note_containers "$node"
  log "$node killed (SIGKILL to its server, dockerd, containerd, shims and sandboxes: $(echo $pids | wc -w) processes); its namespace stays"
}

cmd_start() {
  local node=${1:?usage: cluster.sh start NODE}
  require_root
  node_index "$node" >/dev/null
  [ -f "$state/$node/server.env" ] || die "no node $node in this cluster"
  start_engine "$node"
  wait_for_engine "$node"
  start_server "$node"
  wait_for_server "$node"
  # back when the front door sends it traffic again (two good checks, 1 s apart)
  wait_for 10 "HAProxy to see $node up" haproxy_sees_up "$node" || true
  log "$node is back: $(node_addr "$node"):$server_port answers /healthz"
}

cmd_drain() {
  local node=${1:?usage: cluster.sh drain NODE} pid started=$SECONDS
  require_root
  node_index "$node" >/dev/null
  pid=$(pid_alive "$state/$node/server.pid") || die "$node's server is not running"
  # the servers run with CODEINTERP_DRAIN_ON_STOP=true: SIGTERM is a drain, and the process exits when done
  kill -TERM "$pid"
  log "$node: draining (SIGTERM to $pid)"
  wait_for "${CLUSTER_DRAIN_TIMEOUT:-600}" "$node's server to finish draining" not_running "$pid" \
    || die "$node still draining after ${CLUSTER_DRAIN_TIMEOUT:-600} s; see $state/$node/server.log"
  log "$node drained in $((SECONDS - started)) s; its engine still runs ('start $node' brings the server back)"
}

cmd_down() {
  require_root
  local pid node
  if pid=$(pid_alive "$state/haproxy.pid"); then
    kill -TERM "$pid" 2>/dev/null || true
    wait_for 10 "HAProxy to stop" not_running "$pid" || kill -KILL "$pid" 2>/dev/null || true
  fi
  for node in $(nodes); do
    # SIGKILL, not SIGTERM: a SIGTERM would drain the node onto the others, which are going too
    pid=$(pid_alive "$state/$node/server.pid") && kill -KILL "$pid" 2>/dev/null || true
    note_containers "$node"
    remove_engine "$node"
    kill_node_processes "$node"
    remove_shim_sockets "$node"
    bash "$repo/scripts/unmount-under.sh" "$data/$node" 2>/dev/null || true
    bash "$repo/scripts/unmount-under.sh" "$state/$node" 2>/dev/null || true
    ip netns del "$(netns_of "$node")" 2>/dev/null || true
    ip link del "ci-$node" 2>/dev/null || true
  done
  bash "$repo/scripts/postgres.sh" stop "$data/postgres" || true
  remove_forwarding
  # --one-file-system: never into a mount that survived the unmounts
  rm -rf --one-file-system "$state" "$data"
  log "down: nothing of the cluster is left"
}

case "${1:-}" in
  up) cmd_up "${2:-3}" ;;
  status) cmd_status ;;
  kill) cmd_kill "${2:-}" ;;
  start) cmd_start "${2:-}" ;;
  drain) cmd_drain "${2:-}" ;;
  url) node_index "${2:?usage: cluster.sh url NODE}" >/dev/null; echo "http://$(node_addr "$2"):$server_port" ;;
  docker) node=${2:?usage: cluster.sh docker NODE ARG...}; shift 2; docker_of "$node" "$@" ;;
  down) cmd_down ;;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
