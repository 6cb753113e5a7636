#!/usr/bin/env bash
# One MCP server on three replicas behind haproxy, sharing Redis, all on 127.0.0.1 (the local
# shape of deploy/k8s/). Daemons run in the foreground of their own processes (no systemd), each
# recorded by PID in a state directory, and are stopped by those PIDs only.
#
#   deploy/replicas.sh start BIN [DIR]     Redis, replicas a, b, c of BIN (`BIN http ADDR`, built
#                                          with the `redis` feature) and haproxy (deploy/haproxy.cfg)
#                                          on free ports; waits until all answer; writes DIR/env
#   deploy/replicas.sh stop [DIR]          stops everything `start` started (TERM, then KILL)
#   deploy/replicas.sh kill NAME [DIR]     kill -9 replica NAME (a, b or c)
#   deploy/replicas.sh revive NAME [DIR]   starts replica NAME again on its port (and, with the
#                                          test routes on, waits until haproxy serves it again)
#   deploy/replicas.sh redis-stop [DIR]    stops Redis (TERM: it writes its append-only file)
#   deploy/replicas.sh redis-start [DIR]   starts Redis again on its port, with its data
#
# DIR defaults to $MCP_REPLICAS_DIR, else /tmp/mcp-replicas. DIR/env holds MCP_LB_URL (the
# balancer's /mcp URL), MCP_REDIS_URL, REPLICA_A_URL etc. (each replica's own /mcp URL),
# for `source`. Logs: DIR/{redis,a,b,c,haproxy}.log.
# The environment of `start` reaches the replicas (e.g. MCP_LOG_MESSAGES=1). `start` sets
# MCP_NODE_ID (a, b, c), MCP_REDIS_URL, and one shared requestState key ring in
# MCP_REQUEST_STATE_KEYS (generated once per DIR) unless the caller gives one.
# MCP_LB_TEST_ROUTES=1 (the default here) enables haproxy's test-only `X-Replica` pin header.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cmd="${1:-}"
names=(a b c)

die() {
  echo "replicas: $*" >&2
  exit 2
}

state_dir() {
  echo "${1:-${MCP_REPLICAS_DIR:-/tmp/mcp-replicas}}"
}

# Free loopback ports: bound to port 0 all at once (so they differ), then released.
free_ports() {
  python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()' "$1"
}

# Waits until URL answers 200 (curl-free: python), or gives up after $2 tenths of a second.
wait_http() {
  python3 - "$1" "${2:-100}" <<'PY'
import sys, time, urllib.request
url, tries = sys.argv[1], int(sys.argv[2])
for _ in range(tries):
    try:
        with urllib.request.urlopen(url, timeout=1) as r:
            if r.status == 200:
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
}

wait_redis() {
  local port="$1"
  for _ in $(seq 100); do
    if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then return 0; fi
    sleep 0.1
  done
  return 1
}

# Stops PID (TERM, up to 3 s, then KILL) if it still runs.
stop_pid() {
  local pid="$1"
  [[ -n "$pid" ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 30); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.1
}

pid_of() {
  cat "$dir/$1.pid" 2>/dev/null || true
}

start_redis() {
  # Append-only file on: sessions outlive a Redis restart (scenario 8 of tests/scale-out).
  setsid redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly yes \
    --appendfsync always --dir "$dir" --maxmemory-policy noeviction \
    >>"$dir/redis.log" 2>&1 &
  echo $! >"$dir/redis.pid"
  wait_redis "$REDIS_PORT" || die "redis-server did not answer on port $REDIS_PORT (see $dir/redis.log)"
}

start_replica() {
  local name="$1" port_var="PORT_${1^^}"
  local port="${!port_var}"
  MCP_NODE_ID="$name" MCP_REDIS_URL="$MCP_REDIS_URL" \
    MCP_REQUEST_STATE_KEYS="$MCP_REQUEST_STATE_KEYS" \
    setsid "$BIN" http "127.0.0.1:$port" >>"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
  wait_http "http://127.0.0.1:$port/healthz" 300 ||
    die "replica $name did not become healthy on port $port (see $dir/$name.log)"
}

load_env() {
  [[ -f "$dir/env" ]] || die "no $dir/env: run \`deploy/replicas.sh start BIN\` first"
  # shellcheck disable=SC1091 # written by start
  source "$dir/env"
}

case "$cmd" in
  start)
    BIN="${2:-}"
    [[ -x "$BIN" ]] || die "usage: replicas.sh start BIN [DIR] (BIN: an MCP server binary)"
    BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
    dir="$(state_dir "${3:-}")"
    mkdir -p "$dir"
    [[ -z "$(pid_of haproxy)" ]] || ! kill -0 "$(pid_of haproxy)" 2>/dev/null ||
      die "$dir already runs a topology; stop it first"
    command -v redis-server >/dev/null || die "redis-server missing (apt-get install redis-server)"
    command -v haproxy >/dev/null || die "haproxy missing (apt-get install haproxy)"
    read -r LB_PORT REDIS_PORT PORT_A PORT_B PORT_C <<<"$(free_ports 5)"
    rm -rf "$dir/appendonlydir" "$dir"/*.log
    MCP_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/"
    if [[ -z "${MCP_REQUEST_STATE_KEYS:-}" ]]; then
      MCP_REQUEST_STATE_KEYS="$(python3 -c 'import secrets; print(secrets.token_hex(32))')"
    fi
    cat >"$dir/env" <<EOF
BIN='$BIN'
LB_PORT=$LB_PORT
REDIS_PORT=$REDIS_PORT
PORT_A=$PORT_A
PORT_B=$PORT_B
PORT_C=$PORT_C
MCP_LB_URL='http://127.0.0.1:$LB_PORT/mcp'
MCP_REDIS_URL='$MCP_REDIS_URL'
MCP_REQUEST_STATE_KEYS='$MCP_REQUEST_STATE_KEYS'
REPLICA_A_URL='http://127.0.0.1:$PORT_A/mcp'
REPLICA_B_URL='http://127.0.0.1:$PORT_B/mcp'
REPLICA_C_URL='http://127.0.0.1:$PORT_C/mcp'
EOF
    start_redis
    for name in "${names[@]}"; do start_replica "$name"; done
    MCP_LB_ADDR="127.0.0.1:$LB_PORT" MCP_REPLICA_A="127.0.0.1:$PORT_A" \
      MCP_REPLICA_B="127.0.0.1:$PORT_B" MCP_REPLICA_C="127.0.0.1:$PORT_C" \
      MCP_LB_TEST_ROUTES="${MCP_LB_TEST_ROUTES:-1}" \
      setsid haproxy -db -f "$here/haproxy.cfg" >>"$dir/haproxy.log" 2>&1 &
    echo $! >"$dir/haproxy.pid"
    wait_http "http://127.0.0.1:$LB_PORT/healthz" 100 ||
      die "haproxy did not forward /healthz on port $LB_PORT (see $dir/haproxy.log)"
    echo "replicas: haproxy http://127.0.0.1:$LB_PORT/mcp -> a :$PORT_A, b :$PORT_B, c :$PORT_C; redis :$REDIS_PORT; state in $dir"
    ;;
  stop)
    dir="$(state_dir "${2:-}")"
    # Reverse order: the balancer first (no new requests), then the replicas, then Redis.
    for name in haproxy c b a redis; do
      stop_pid "$(pid_of "$name")"
      rm -f "$dir/$name.pid"
    done
    ;;
  kill)
    name="${2:-}"
    [[ "$name" =~ ^[abc]$ ]] || die "usage: replicas.sh kill a|b|c [DIR]"
    dir="$(state_dir "${3:-}")"
    pid="$(pid_of "$name")"
    [[ -n "$pid" ]] && kill -KILL "$pid" 2>/dev/null || die "replica $name is not running"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    rm -f "$dir/$name.pid"
    ;;
  revive)
    name="${2:-}"
    [[ "$name" =~ ^[abc]$ ]] || die "usage: replicas.sh revive a|b|c [DIR]"
    dir="$(state_dir "${3:-}")"
    load_env
    start_replica "$name"
    # Back in haproxy's pool once its checks pass: a request pinned to it is served by it.
    python3 - "$LB_PORT" "$name" <<'PY' || die "haproxy did not take replica $name back"
import sys, time, urllib.request
port, name = sys.argv[1], sys.argv[2]
for _ in range(100):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"x-replica": name})
    try:
        with urllib.request.urlopen(request, timeout=1) as r:
            if r.headers.get("x-served-by") == name:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.exit(1)
PY
    ;;
  redis-stop)
    dir="$(state_dir "${2:-}")"
    stop_pid "$(pid_of redis)"
    rm -f "$dir/redis.pid"
    ;;
  redis-start)
    dir="$(state_dir "${2:-}")"
    load_env
    start_redis
    ;;
  *)
    sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
