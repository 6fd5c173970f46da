#!/usr/bin/env bash
# Prints an HAProxy 2.6 configuration for a codeinterp cluster, from haproxy.cfg.tmpl beside it:
#
#   bash scripts/cluster/haproxy-config.sh BIND RUN_DIR NODE_ID=HOST:PORT...
#
# BIND is HAProxy's bind argument for the front door (127.0.0.1:8000, or ":443 ssl crt /etc/...pem"
# on a real host); RUN_DIR holds its pid file and stats socket. Each NODE_ID=HOST:PORT is a node's
# id (as its session ids and X-CodeInterp-Node name it) and the address its server listens on.
# Environment: HAPROXY_LOG (log target, default "stdout format raw": HAProxy run in the foreground
# with its output in a file), HAPROXY_SERVER_OPTIONS (added to every node server line, e.g.
# "ssl verify required ca-file /etc/codeinterp/ca.pem" for TLS between the front door and the nodes).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: haproxy-config.sh BIND RUN_DIR NODE_ID=HOST:PORT..."
bind=${1:?$usage}
run_dir=${2:?$usage}
shift 2
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
server_options=${HAPROXY_SERVER_OPTIONS:-}

node_rules="" node_servers=""
for node in "$@"; do
  id=${node%%=*} address=${node#*=}
  # the server's NODE_ID rule, the shape HAProxy's node-hint rule accepts, so every id can be routed to
  [[ "$id" =~ ^[a-z0-9][a-z0-9-]{0,31}$ ]] || { echo "haproxy-config.sh: node id '$id': 1-32 of a-z, 0-9 and '-' (not first)" >&2; exit 2; }
  [[ "$address" =~ ^[^[:space:]=]+:[0-9]+$ ]] || { echo "haproxy-config.sh: '$node' is not NODE_ID=HOST:PORT" >&2; exit 2; }
  node_rules+="    use-server $id if { var(txn.node) -m str $id }"$'\n'
  node_servers+="    server $id $address"$'\n'
done

# Fill the template: @NAME@ placeholders; the multi-line ones stand alone on their lines.
NODE_RULES=${node_rules%$'\n'} NODE_SERVERS=${node_servers%$'\n'} \
BIND=$bind PID_FILE=$run_dir/haproxy.pid STATS_SOCKET=$run_dir/haproxy.sock \
LOG_TARGET=${HAPROXY_LOG:-stdout format raw} SERVER_OPTIONS=$server_options \
python3 -c '
import os, re, sys
text = open(sys.argv[1]).read()
print(re.sub(r"@([A-Z_]+)@", lambda m: os.environ[m.group(1)], text), end="")
' "$here/haproxy.cfg.tmpl"
