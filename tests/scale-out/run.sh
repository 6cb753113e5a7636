#!/usr/bin/env bash
# The scale-out scenarios of issue 12: Debian's redis-server and haproxy, three replicas (a, b, c)
# of everything-server built with the `redis` feature, all on 127.0.0.1 (deploy/replicas.sh), then
#   - the official TypeScript SDK client at 2025-11-25 (ts_scenarios.mjs; npm, pinned here);
#   - the official Python SDK client in both eras (py_scenarios.py; PyPI `mcp`, pinned in
#     tests/interop/requirements.txt), plus raw HTTP where the exact status matters (scenario 8).
# Every hop between replicas is chosen with haproxy's test-only `X-Replica` header and checked
# with its `X-Served-By`. Installs what is missing: redis-server and haproxy (apt-get), the
# clients (npm ci here; a venv in $MCP_INTEROP_VENV, default tests/interop/.venv, shared with the
# interop tests). Stops every process it started (trap), whatever happens; each client has a
# hard time limit, and so has each install. Prints each client's `N passed, M failed`, then the
# sum; exits 1 on a failure.
#
# Usage: tests/scale-out/run.sh [PATH/TO/everything-server]
#        (default: the workspace's debug build; build it with
#         cargo build -p everything-server --features everything-server/redis)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${1:-$target/debug/everything-server}"
venv="${MCP_INTEROP_VENV:-$root/tests/interop/.venv}"

if [[ ! -x "$bin" ]]; then
  echo "scale-out: no everything-server at $bin; build it with: cargo build -p everything-server --features everything-server/redis" >&2
  exit 2
fi

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v haproxy >/dev/null 2>&1 || missing+=(haproxy)
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "scale-out: installing ${missing[*]} (apt-get)"
  sudo=""
  if [[ "$(id -u)" -ne 0 ]]; then sudo="sudo"; fi
  timeout 600 $sudo apt-get update -qq
  timeout 600 $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "scale-out: $(redis-server --version | cut -d' ' -f1-3), $(haproxy -v | head -n 1 | cut -d' ' -f1-3)"

echo "scale-out: installing the pinned TypeScript SDK (npm ci)"
(cd "$here" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
echo "scale-out: installing the pinned Python SDK into $venv"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/tests/interop/requirements.txt"

state="$(mktemp -d)"
export MCP_REPLICAS_DIR="$state"
out="$(mktemp)"
keep=0
cleanup() {
  "$root/deploy/replicas.sh" stop "$state" || true
  if [[ $keep -eq 1 ]]; then
    echo "scale-out: logs kept in $state" >&2
  else
    rm -rf "$state"
  fi
  rm -f "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$root/deploy/replicas.sh" start "$bin" "$state"
# shellcheck disable=SC1091 # written by replicas.sh start
source "$state/env"

status=0
passed=0
failed=0
# shellcheck source=../lib/counts.sh
source "$here/../lib/counts.sh"

echo "scale-out: TypeScript SDK client $(cd "$here" && node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version') (2025-11-25) via haproxy at $MCP_LB_URL"
client scale-out timeout --kill-after=5 240 node "$here/ts_scenarios.mjs" "$MCP_LB_URL"
echo "scale-out: Python SDK client $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))') (legacy and 2026-07-28) via haproxy at $MCP_LB_URL"
client scale-out timeout --kill-after=5 300 "$venv/bin/python" "$here/py_scenarios.py" "$MCP_LB_URL"

if [[ $status -ne 0 ]]; then
  keep=1
  for name in a b c haproxy redis; do
    echo "scale-out: last lines of $name.log:" >&2
    tail -n 30 "$state/$name.log" >&2 || true
  done
fi
echo "scale-out: $passed passed, $failed failed"
exit $status
