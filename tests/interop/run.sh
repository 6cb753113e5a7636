#!/usr/bin/env bash
# Runs three clients (versions pinned here) against the gift-server binary: spawned over stdio,
# and over Streamable HTTP (`gift-server http` on a free loopback port, started and stopped
# here, with its message log on):
#   - the official TypeScript SDK client (ts_client.mjs): the initialize handshake;
#   - the official Python SDK client (py_client.py): modes auto, legacy and 2026-07-28;
#   - the MCP Inspector's CLI (inspector.mjs): protocol eras legacy and modern;
#   - the TypeScript SDK client's 2025-11-25 tasks (ts_tasks.mjs) against everything-server, the
#     binary next to gift-server (the task fixtures live there), over stdio and HTTP.
# Installs the clients on first use: node_modules/ here (npm ci, package-lock.json), a Python
# venv in $MCP_INTEROP_VENV (default: .venv here; requirements.txt). Package registries are the
# only network used. Prints each client's `N passed, M failed`, then the sum. Each install and
# each client has a time limit (300 s); a missing binary or URL fails the run (exit 2).
#
# Usage: tests/interop/run.sh [PATH/TO/gift-server]   (default: the workspace's debug build)
# MCP_LOG_MESSAGES=1 makes the stdio servers log every message in and out on stderr (the HTTP
# server always logs them, to a file the clients read; it is printed if a check fails).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${1:-$target/debug/gift-server}"
venv="${MCP_INTEROP_VENV:-$here/.venv}"

if [[ ! -x "$bin" ]]; then
  echo "interop: no gift-server binary at $bin; build it with: cargo build -p gift-server" >&2
  exit 2
fi
# The tasks fixtures' server, next to gift-server.
tasks_bin="$(dirname "$bin")/everything-server"
if [[ ! -x "$tasks_bin" ]]; then
  echo "interop: no everything-server at $tasks_bin: build it with cargo build -p everything-server" >&2
  exit 2
fi

echo "interop: installing the pinned TypeScript SDK and MCP Inspector (npm ci)"
(cd "$here" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)

echo "interop: installing the pinned Python SDK into $venv"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

# The HTTP server: port 0, and the URL it prints on stderr. Its message log is how the clients
# check what went over the wire (MCP_INTEROP_HTTP_LOG).
log="$(mktemp)"
MCP_LOG_MESSAGES=1 "$bin" http 127.0.0.1:0 2>"$log" &
server=$!
keep_log=0
trap 'kill "$server" 2>/dev/null || true; [[ $keep_log -eq 1 ]] || rm -f "$log"' EXIT
export MCP_INTEROP_HTTP_LOG="$log"
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://[^ ]*/mcp' "$log" | head -n 1 || true)"
  [[ -n "$url" ]] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "interop: gift-server http exited:" >&2
    cat "$log" >&2
    exit 2
  fi
  sleep 0.1
done
if [[ -z "$url" ]]; then
  echo "interop: gift-server http did not announce its URL:" >&2
  cat "$log" >&2
  exit 2
fi
echo "interop: gift-server http serving at $url"

status=0
passed=0
failed=0
out="$(mktemp)"
tasks_server=""
trap 'kill "$server" $tasks_server 2>/dev/null || true; [[ $keep_log -eq 1 ]] || rm -f "$log"; rm -f "$out"' EXIT
# shellcheck source=../lib/counts.sh
source "$here/../lib/counts.sh"

echo "interop: TypeScript SDK client $(cd "$here" && node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version') (stdio, http; initialize at 2025-11-25)"
client interop timeout --kill-after=5 300 node "$here/ts_client.mjs" "$bin" "$url"
echo "interop: Python SDK client $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))') (stdio, http; modes auto, legacy and 2026-07-28)"
client interop timeout --kill-after=5 300 "$venv/bin/python" "$here/py_client.py" "$bin" "$url"
echo "interop: MCP Inspector CLI $(cd "$here" && node -p 'require("./node_modules/@modelcontextprotocol/inspector/package.json").version') (stdio, http; eras legacy and modern)"
client interop timeout --kill-after=5 300 node "$here/inspector.mjs" "$bin" "$url"

# 2025-11-25 tasks, against everything-server over stdio and HTTP (its own server, port 0). A
# missing binary, a server that exits or never announces its URL fails the step: the HTTP half
# is never skipped.
tasks_log="$(mktemp)"
trap 'kill "$server" $tasks_server 2>/dev/null || true; [[ $keep_log -eq 1 ]] || rm -f "$log"; rm -f "$out" "$tasks_log"' EXIT
"$tasks_bin" http 127.0.0.1:0 2>"$tasks_log" &
tasks_server=$!
tasks_url=""
for _ in $(seq 100); do
  tasks_url="$(grep -o 'http://[^ ]*/mcp' "$tasks_log" | head -n 1 || true)"
  [[ -n "$tasks_url" ]] && break
  if ! kill -0 "$tasks_server" 2>/dev/null; then
    break
  fi
  sleep 0.1
done
if [[ -z "$tasks_url" ]]; then
  echo "interop: everything-server http exited or did not announce its URL within 10 s:" >&2
  cat "$tasks_log" >&2
  exit 2
fi
echo "interop: TypeScript SDK client tasks (2025-11-25; stdio, http at $tasks_url)"
client interop timeout --kill-after=5 300 node "$here/ts_tasks.mjs" "$tasks_bin" "$tasks_url"
kill "$tasks_server" 2>/dev/null || true

if [[ $status -ne 0 ]]; then
  keep_log=1
  echo "interop: FAILED (rerun with MCP_LOG_MESSAGES=1 to see every stdio message on stderr)" >&2
  echo "interop: gift-server http message log (every message in and out): $log; its last 200 lines:" >&2
  tail -n 200 "$log" >&2
fi
echo "interop: $passed passed, $failed failed"
exit $status
