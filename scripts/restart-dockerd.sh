#!/usr/bin/env bash
# Restarts the Docker engine the way scripts/setup-host.sh started it (no systemd here): SIGTERM,
# wait for it to go, start it again, wait until it answers. Used by the engine-restart fault test.
set -euo pipefail
log() { echo "[restart-dockerd] $*" >&2; }
pid=$(cat /var/run/docker.pid 2>/dev/null || pgrep -xo dockerd || true)
if [ -n "$pid" ]; then
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && { log "dockerd $pid did not stop within 60 s"; exit 1; }
fi
log "dockerd stopped; starting it again"
nohup dockerd >>/var/log/dockerd.log 2>&1 &
for _ in $(seq 1 120); do docker version >/dev/null 2>&1 && break; sleep 0.5; done
docker version >/dev/null 2>&1 || { log "dockerd did not come back; see /var/log/dockerd.log"; exit 1; }
log "dockerd is back"
