#!/usr/bin/env bash
# Brings this host to the state the app and its tests need: a running Docker engine with the
# gVisor runtime registered as "runsc", the tools that build the sandbox image offline, and
# Node.js/npm for the build's Pyodide assets and, with pip, for the packages fetch step; python3-nbformat
# for the notebook tests.
# runsc comes from bookworm-backports: bookworm's own (0.0~20221219, December 2022) rejects coreutils'
# statx, so `ls` and `stat` fail with "Invalid argument" in every sandbox, and it lacks the fixes
# since. An older runsc is replaced, a newer one kept.
# Idempotent: installs only what is missing or older, and starts or reloads dockerd only when needed;
# a second run changes nothing (it does not look for a newer backports runsc without an apt-get update).
set -euo pipefail

log() { echo "[setup-host] $*" >&2; }

if [ "$(id -u)" != 0 ]; then
  log "not root: skipping package installs and dockerd start (the app will say so on /healthz)"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() {
  [ "$apt_updated" = 1 ] || { apt-get update -q >/dev/null; apt_updated=1; }
}

# write_if_changed FILE: stdin becomes FILE's content unless it already is; fails (status 1) when unchanged.
write_if_changed() {
  local content
  content=$(cat)
  [ -f "$1" ] && [ "$(cat "$1")" = "$content" ] && return 1
  printf '%s\n' "$content" > "$1"
}

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
# the build places Pyodide from npm (pyodide-assets runs npm ci)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
# the notebook tests validate exported .ipynb files with Debian's nbformat (the v4.5 schema)
/usr/bin/python3 -c 'import nbformat' >/dev/null 2>&1 || missing+=(python3-nbformat)
# the packages fetch step runs pip download on the host (docs/ARCHITECTURE.md, "Packages")
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  apt_update
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- runsc ---------------------------------------------------------------------------------------
# bookworm-backports, signed by Debian's own archive key, pinned so that runsc is the only package
# apt ever takes from it.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
runsc_path=""
if [ "$codename" = bookworm ]; then
  sources_changed=0
  write_if_changed /etc/apt/sources.list.d/codeinterp-bookworm-backports.sources <<'EOF' && sources_changed=1
# scripts/setup-host.sh (codeinterp): for runsc only, see /etc/apt/preferences.d/codeinterp-bookworm-backports
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  write_if_changed /etc/apt/preferences.d/codeinterp-bookworm-backports <<'EOF' && sources_changed=1
# scripts/setup-host.sh (codeinterp): runsc from bookworm-backports, nothing else from it
Package: runsc
Pin: release n=bookworm-backports
Pin-Priority: 500

Package: *
Pin: release n=bookworm-backports
Pin-Priority: -1
EOF
  backports_runsc() { apt-cache madison runsc 2>/dev/null | awk -F'|' '$3 ~ /bookworm-backports/ { gsub(/ /, "", $2); print $2; exit }'; }
  if [ "$sources_changed" = 1 ] || [ -z "$(backports_runsc)" ]; then
    log "reading bookworm-backports (for runsc only)"
    apt_updated=0
    apt_update
  fi
  wanted=$(backports_runsc)
  [ -n "$wanted" ] || { log "bookworm-backports offers no runsc; see apt-cache policy runsc"; exit 1; }

  # The runsc found and its version. Debian's packages compare as Debian versions; any other build
  # (gVisor's own packages or release binaries) by the release date its --version names.
  release_of() { "$1" --version 2>/dev/null | sed -nE '1s/.*(20[0-9]{6}\.[0-9]+).*/\1/p'; }
  found=$(command -v runsc || true)
  debian_version=$(dpkg-query -W -f='${Version}' runsc 2>/dev/null || true)
  install=0
  if [ -z "$found" ]; then
    log "installing runsc $wanted from bookworm-backports"
    install=1
  elif [ "$found" = /usr/bin/runsc ] && [[ "$debian_version" == 0.0~* ]]; then
    if dpkg --compare-versions "$debian_version" lt "$wanted"; then
      log "replacing runsc $debian_version with bookworm-backports' $wanted"
      install=1
    fi
  else
    release=$(release_of "$found")
    upstream=${wanted%-*}
    if [ -z "$release" ] || dpkg --compare-versions "0.0~$release" lt "$upstream"; then
      log "$found is older (release ${release:-unknown}): registering bookworm-backports' runsc $wanted instead"
      install=1
    fi
  fi
  if [ "$install" = 1 ]; then
    # --allow-downgrades: gVisor's own packages number by date (20221219.0), which dpkg ranks above 0.0~…
    apt-get install -y -q --no-install-recommends --allow-downgrades "runsc=$wanted" >/dev/null
    runsc_path=/usr/bin/runsc
    # Sandboxes already running keep the old runsc's processes, which the new binary cannot always
    # reach (here `docker exec` into one failed: "connecting to control server … invalid argument").
    stale=$(docker ps -q 2>/dev/null | xargs -r docker inspect --format '{{.HostConfig.Runtime}}' 2>/dev/null | grep -cx runsc || true)
    [ "${stale:-0}" = 0 ] || log "$stale running runsc container(s) were started by the replaced runsc: recreate them"
  else
    runsc_path=$found
  fi
else
  # not the product's host: the distribution's runsc, whatever it is
  command -v runsc >/dev/null 2>&1 || { apt_update; apt-get install -y -q --no-install-recommends runsc >/dev/null; }
  runsc_path=$(command -v runsc)
fi

# Register runsc; --network=none is required on these hosts (the sandbox has no network anyway).
# --platform=ptrace: systrap traps a system call in ~23 µs here against ptrace's ~52 µs, but an idle
# sandbox under systrap burns ~5 % of a core (its stubs spin), ptrace's ~0: with hundreds of sessions
# open systrap took the whole machine (docs/benchmarks.md, 2026-12-02). KVM hangs at create on these
# nested-virtualisation hosts. Either gVisor platform ends a memory bomb as "oom" (OomWatch).
# "experimental" lets Docker checkpoint and restore runsc containers. Other settings are kept.
mkdir -p /etc/docker
config_changed=$(python3 - /etc/docker/daemon.json "$runsc_path" <<'PY'
import json, os, sys
path, runsc = sys.argv[1], sys.argv[2]
text = open(path).read() if os.path.exists(path) else ""
try:
    cfg = json.loads(text) if text.strip() else {}
except ValueError as e:
    sys.exit(f"[setup-host] {path} is not valid JSON ({e}): fix or remove it, then run this again; nothing was changed")
if not isinstance(cfg, dict):
    sys.exit(f"[setup-host] {path} must hold a JSON object; nothing was changed")
before = json.dumps(cfg, sort_keys=True)
entry = cfg.setdefault("runtimes", {}).setdefault("runsc", {})
entry["path"] = runsc
args = [a for a in entry.get("runtimeArgs", []) if not a.startswith("--platform")]
for arg in ("--network=none", "--platform=ptrace"):
    if arg not in args:
        args.append(arg)
entry["runtimeArgs"] = args
cfg["experimental"] = True
if json.dumps(cfg, sort_keys=True) != before:
    with open(path, "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    print(1)
else:
    print(0)
PY
)
[ "$config_changed" = 0 ] || log "registered $runsc_path as runtime runsc in /etc/docker/daemon.json"

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
  kill -HUP "$(cat /var/run/docker.pid 2>/dev/null || pgrep -xo dockerd)"
  sleep 1
fi

# What the running engine will execute, not only what the file says. The binary is run per
# container, so a runsc replaced at the same path is the one new sandboxes get.
registered=$(docker info --format '{{json .Runtimes}}' | python3 -c 'import json, sys; print((json.load(sys.stdin).get("runsc") or {}).get("path", ""))')
[ "$registered" = "$runsc_path" ] || { log "dockerd's runsc is '${registered:-none}', not $runsc_path"; exit 1; }
log "docker $(docker version --format '{{.Server.Version}}') ready, runtimes: $(docker info --format '{{range $k, $v := .Runtimes}}{{$k}} {{end}}')"
log "runsc registered: $runsc_path, $("$runsc_path" --version 2>/dev/null | head -1)"
[ "$(docker version --format '{{.Server.Experimental}}')" = true ] \
  || log "note: dockerd runs without \"experimental\" (checkpoints) until its next start"
