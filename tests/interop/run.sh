#!/usr/bin/env bash
# Runs the official SDK clients (TypeScript and Python, versions pinned here) against the
# gift-server binary: spawned over stdio, and over Streamable HTTP (`gift-server http` on a free
# loopback port, started and stopped here). Installs the clients on first use: node_modules/
# here, a Python venv in $MCP_INTEROP_VENV (default: .venv here). Package registries are the
# only network used.
#
# Usage: tests/interop/run.sh [PATH/TO/gift-server]   (default: the workspace's debug build)
# MCP_LOG_MESSAGES=1 makes the server log every message in and out on stderr.
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

echo "interop: installing the pinned TypeScript SDK (npm ci)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

echo "interop: installing the pinned Python SDK into $venv"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

# The HTTP server: port 0, and the URL it prints on stderr.
log="$(mktemp)"
"$bin" http 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
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
echo "interop: TypeScript SDK client $(cd "$here" && node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version') (stdio, http)"
node "$here/ts_client.mjs" "$bin" "$url" || status=1
echo "interop: Python SDK client $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))') (stdio, http; auto and legacy modes)"
"$venv/bin/python" "$here/py_client.py" "$bin" "$url" || status=1

if [[ $status -ne 0 ]]; then
  echo "interop: FAILED (rerun with MCP_LOG_MESSAGES=1 to see every message on stderr)" >&2
  if [[ -s "$log" ]]; then
    echo "interop: gift-server http stderr:" >&2
    cat "$log" >&2
  fi
fi
exit $status
