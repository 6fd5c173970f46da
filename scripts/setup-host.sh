#!/usr/bin/env bash
# Brings this host to the state the app and its tests need: a running Docker engine with the
# gVisor runtime registered as "runsc", the tools that build the sandbox image offline, and
# Node.js/npm for the build's Pyodide assets and, with pip, for the packages fetch step; python3-nbformat
# for the notebook tests.
# Idempotent: installs only what is missing and starts dockerd only when it is not answering.
set -euo pipefail

log() { echo "[setup-host] $*" >&2; }

if [ "$(id -u)" != 0 ]; then
  log "not root: skipping package installs and dockerd start (the app will say so on /healthz)"
  exit 0
fi

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v runsc >/dev/null 2>&1 || missing+=(runsc)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
# the build places Pyodide from npm (pyodide-assets runs npm ci)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
# the notebook tests validate exported .ipynb files with Debian's nbformat (the v4.5 schema)
/usr/bin/python3 -c 'import nbformat' >/dev/null 2>&1 || missing+=(python3-nbformat)
# the packages fetch step runs pip download on the host (docs/ARCHITECTURE.md, "Packages")
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# Register runsc; --network=none is required on these hosts (the sandbox has no network anyway).
daemon_json=/etc/docker/daemon.json
want='{"runtimes":{"runsc":{"path":"'"$(command -v runsc)"'","runtimeArgs":["--network=none"]}}}'
mkdir -p /etc/docker
config_changed=0
if ! grep -q '"runsc"' "$daemon_json" 2>/dev/null; then
  if [ -s "$daemon_json" ]; then
    python3 - "$daemon_json" "$(command -v runsc)" <<'PY'
import json, sys
path, runsc = sys.argv[1], sys.argv[2]
cfg = json.load(open(path))
cfg.setdefault("runtimes", {})["runsc"] = {"path": runsc, "runtimeArgs": ["--network=none"]}
json.dump(cfg, open(path, "w"), indent=2)
PY
  else
    echo "$want" > "$daemon_json"
  fi
  config_changed=1
  log "registered runsc in $daemon_json"
fi

if ! docker version >/dev/null 2>&1; then
  log "starting dockerd"
  nohup dockerd >/var/log/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker version >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker version >/dev/null 2>&1 || { log "dockerd did not come up; see /var/log/dockerd.log"; tail -20 /var/log/dockerd.log >&2; exit 1; }
elif [ "$config_changed" = 1 ]; then
  log "reloading dockerd configuration"
  pkill -HUP dockerd || true
  sleep 1
fi

docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q runsc || { log "runsc is not registered with dockerd"; exit 1; }
log "docker $(docker version --format '{{.Server.Version}}') ready, runtimes: $(docker info --format '{{range $k, $v := .Runtimes}}{{$k}} {{end}}')"
