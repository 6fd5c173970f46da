#!/usr/bin/env bash
# A throwaway PostgreSQL 15 (Debian's) for the tests and benchmarks that run the store on PostgreSQL:
#
#   eval "$(bash scripts/postgres.sh start DIR [ADDR...])"  # initdb in DIR, start on a free loopback port
#                                                  # (and on ADDR..., local addresses other hosts reach it on)
#   bash scripts/postgres.sh stop DIR              # stop it and delete DIR
#   bash scripts/postgres.sh createdb DIR NAME     # a new empty database; prints its jdbc:postgresql:// URL
#   bash scripts/postgres.sh add-client DIR NAME CLIENT...  # database NAME owned by a role NAME with a password
#                                                  # of its own, reachable from the CLIENT addresses only;
#                                                  # prints the role's password file
#   bash scripts/postgres.sh halt|resume DIR       # stop it keeping its data / start it again, same port
#                                                  # (the test of a database that goes away)
#
# start prints shell assignments: POSTGRES_URL (jdbc:postgresql://127.0.0.1:PORT/postgres),
# POSTGRES_USER and POSTGRES_PASSWORD_FILE (the superuser, with a random password: password
# authentication is what a real install uses, so that path is the one tested). The server runs as
# the postgres user (initdb refuses root), listens on 127.0.0.1 (plus the ADDRs given to start: the
# host's side of scripts/cluster.sh's node links), and keeps its socket in DIR.
# Installs postgresql-15 when its binaries are missing, without creating or starting Debian's own cluster.
set -euo pipefail

log() { echo "[postgres] $*" >&2; }
bin=/usr/lib/postgresql/15/bin
usage="usage: postgres.sh start|stop|createdb|add-client|halt|resume DIR"
cmd=${1:?$usage}
dir=${2:?$usage}

install_if_missing() {
  [ -x "$bin/pg_ctl" ] && return
  [ "$(id -u)" = 0 ] || { log "postgresql-15 is not installed and we are not root"; exit 1; }
  log "installing postgresql-15"
  mkdir -p /etc/postgresql-common
  # only the binaries: no cluster of Debian's own listening on 5432
  grep -qs '^create_main_cluster' /etc/postgresql-common/createcluster.conf \
    || echo 'create_main_cluster = false' >> /etc/postgresql-common/createcluster.conf
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends postgresql-15 >/dev/null
}

# as_postgres CMD...: initdb and pg_ctl refuse to run as root
as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# starts the cluster in $dir on the port in $dir/port and the addresses in $dir/listen
pg_start() {
  # 400 connections: each test server and each benchmark server keeps a pool
  as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-c listen_addresses=$(cat "$dir/listen") -p $(cat "$dir/port") -k $dir -c max_connections=400" >/dev/null \
    || { tail -20 "$dir/server.log" >&2; exit 1; }
}

# psql_super SQL: runs SQL as the superuser over loopback
psql_super() {
  PGPASSWORD=$(cat "$dir/password") "$bin/psql" -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(cat "$dir/port")" \
    -U postgres -d postgres -c "$1" >/dev/null
}

case "$cmd" in
  start)
    install_if_missing
    mkdir -p "$dir"
    dir=$(realpath "$dir")
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 -c 'import secrets; print(secrets.token_hex(16))' > "$dir/password"
    chmod 600 "$dir/password"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir/password"
    as_postgres "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/password" --auth=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    echo "$port" > "$dir/port"
    # extra addresses must already be this host's (pg_ctl fails otherwise); remote clients still
    # need add-client's pg_hba lines, initdb's own allow loopback only
    (IFS=,; echo "127.0.0.1${3:+,${*:3}}") > "$dir/listen"
    pg_start
    log "PostgreSQL 15 on $(cat "$dir/listen"), port $port (data in $dir/data)"
    echo "POSTGRES_URL=jdbc:postgresql://127.0.0.1:$port/postgres"
    echo "POSTGRES_USER=postgres"
    echo "POSTGRES_PASSWORD_FILE=$dir/password"
    ;;
  stop)
    [ -d "$dir" ] || exit 0
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  createdb)
    name=${3:?usage: postgres.sh createdb DIR NAME}
    psql_super "CREATE DATABASE \"$name\""
    echo "jdbc:postgresql://127.0.0.1:$(cat "$dir/port")/$name"
    ;;
  add-client)
    name=${3:?usage: postgres.sh add-client DIR NAME CLIENT_ADDR...}
    [ $# -ge 4 ] || { echo "usage: postgres.sh add-client DIR NAME CLIENT_ADDR..." >&2; exit 2; }
    [[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || { log "role/database name '$name': lower-case letters, digits, _"; exit 2; }
    secret=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    (umask 077; echo "$secret" > "$dir/$name.password")
    # hex only, so it is safe inside the SQL literal
    psql_super "CREATE ROLE \"$name\" LOGIN PASSWORD '$secret'"
    psql_super "CREATE DATABASE \"$name\" OWNER \"$name\""
    # only this role, only its database, only from these addresses, only with its password
    for client in "${@:4}"; do
      echo "host $name $name $client/32 scram-sha-256"
    done >> "$dir/data/pg_hba.conf"
    psql_super "SELECT pg_reload_conf()"
    echo "$dir/$name.password"
    ;;
  halt)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
    ;;
  resume)
    pg_start
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
