#!/usr/bin/env bash
# A gateway in front of real servers that nobody here wrote: examples/mcp-proxy (Streamable HTTP)
# and `ServerBuilder::mount` (in process), each in front of the official TypeScript everything
# server (npm @modelcontextprotocol/server-everything, pinned in tests/client-interop) and of
# fastmcp_server.py (PyPI fastmcp, pinned with its dependencies in requirements.txt), over
# stdio, in each revision the backend speaks (everything: 2025-11-25; FastMCP: 2025-11-25 and
# 2026-07-28), driven by our client in 2025-11-25 and 2026-07-28: capabilities derived from the
# backend's, completion, logging at the level set, subscription and update, list change,
# progress, cancellation (examples/mcp-proxy/examples/gateway_check).
#
# usage: tests/gateway-interop/run.sh [PATH/TO/gateway_check [PATH/TO/mcp-proxy]]
#
# Builds nothing (cargo build -p mcp-proxy --example gateway_check --bins). Installs what is
# missing: the everything server (npm ci --prefix tests/client-interop), the FastMCP venv in
# $MCP_GATEWAY_VENV (default: .venv here); each install and each backend's run under a time
# limit. Needs Node 18+ and Python 3.10+.

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
check=${1:-$target/debug/examples/gateway_check}
proxy=${2:-$target/debug/mcp-proxy}
venv=${MCP_GATEWAY_VENV:-$here/.venv}
everything="$root/tests/client-interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

[[ -x $check ]] || { echo "gateway-interop: no gateway_check at $check (cargo build -p mcp-proxy --example gateway_check)" >&2; exit 2; }
[[ -x $proxy ]] || { echo "gateway-interop: no mcp-proxy at $proxy (cargo build -p mcp-proxy)" >&2; exit 2; }
if [[ ! -f $everything ]]; then
  timeout 300 npm ci --prefix "$root/tests/client-interop" --no-audit --no-fund --loglevel=error || exit 2
fi
if [[ ! -x $venv/bin/python ]]; then
  timeout 120 python3 -m venv "$venv" || exit 2
fi
timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" || exit 2

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failures=0
echo "gateway-interop: the TypeScript everything server behind the gateway"
timeout --kill-after=10 600 "$check" everything "$proxy" "$logs/everything.log" -- node "$everything" stdio || failures=$((failures + 1))
echo "gateway-interop: FastMCP $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("fastmcp"))') behind the gateway"
timeout --kill-after=10 600 "$check" fastmcp "$proxy" "$logs/fastmcp.log" -- "$venv/bin/python" "$here/fastmcp_server.py" || failures=$((failures + 1))
((failures == 0))
