#!/usr/bin/env bash
# Runs the official SDK clients (TypeScript and Python, versions pinned here) against the
# gift-server binary over stdio. Installs them on first use: node_modules/ here, a Python venv
# in $MCP_INTEROP_VENV (default: .venv here). Package registries are the only network used.
#
# Usage: tests/interop/run.sh [PATH/TO/gift-server]   (default: the workspace's debug build)
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

status=0
echo "interop: TypeScript SDK client ($(cd "$here" && node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version'))"
node "$here/ts_client.mjs" "$bin" || status=1
echo "interop: Python SDK client ($("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))'))"
"$venv/bin/python" "$here/py_client.py" "$bin" || status=1

if [[ $status -ne 0 ]]; then
  echo "interop: FAILED (rerun with MCP_LOG_MESSAGES=1 to see every message on stderr)" >&2
fi
exit $status
