#!/usr/bin/env bash
# The official clients against a protected server, with a real authorization server:
#   - oauth2-mock-server (tests/auth/mock-as.mjs, pinned in package.json) on a loopback port;
#   - the notes-auth example, `notes-auth http` with MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE (the
#     command line's environment variables, no code of its own for the issuer);
#   - the official TypeScript SDK client with its client-credentials provider (ts_client.mjs),
#     and the official Python SDK client with its (py_client.py): each discovers the
#     authorization server through our metadata, gets a token, calls tools; a second run with a
#     token lacking `notes:write` gets 403 insufficient_scope and steps up;
#   - a gift-server binary built with the `auth` feature (the second argument, default: the
#     gift-server next to notes-auth; no code of its own for authorization): the same environment
#     variables make it a protected resource (gift_check.py: 401 and metadata without a token,
#     tools with one).
# Installs on first use: node_modules/ here (npm ci), the Python SDK into $MCP_INTEROP_VENV
# (default: tests/interop/.venv; tests/interop/requirements.txt). Each install and each client
# has a time limit; a missing binary, or a server that does not start, fails the run (exit 2).
#
# Usage: tests/auth/run.sh [PATH/TO/notes-auth [PATH/TO/gift-server-built-with-auth]]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${1:-$target/debug/notes-auth}"
gift="${2:-$(dirname "$bin")/gift-server}"
venv="${MCP_INTEROP_VENV:-$root/tests/interop/.venv}"

if [[ ! -x "$bin" ]]; then
  echo "auth: no notes-auth binary at $bin; build it with: cargo build -p notes-auth" >&2
  exit 2
fi
if [[ ! -x "$gift" ]]; then
  echo "auth: no gift-server binary at $gift; build it with: cargo build -p gift-server --features mcp-runtime/auth" >&2
  exit 2
fi
(cd "$here" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/tests/interop/requirements.txt"

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The authorization server: it stops when its stdin (a fifo held open here) closes.
mkfifo "$work/as-in"
node "$here/mock-as.mjs" <"$work/as-in" >"$work/as-out" &
pids+=($!)
exec 3>"$work/as-in"
issuer=""
for _ in $(seq 100); do
  issuer="$(grep -o '"issuer":"[^"]*"' "$work/as-out" | cut -d'"' -f4 || true)"
  [[ -n "$issuer" ]] && break
  sleep 0.1
done
[[ -n "$issuer" ]] || { echo "auth: the mock authorization server did not start" >&2; exit 2; }

# A protected server ($1: binary, $2: log file) on a free port known in advance (its audience
# names it); prints its URL.
start() {
  local port
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  MCP_AUTH_ISSUER="$issuer" MCP_AUTH_AUDIENCE="http://127.0.0.1:$port/mcp" "$1" http "127.0.0.1:$port" 2>"$2" &
  pids+=($!)
  for _ in $(seq 100); do
    grep -q "serving MCP" "$2" && break
    sleep 0.1
  done
  grep -q "serving MCP" "$2" || { echo "auth: $1 did not start within 10 s:" >&2; cat "$2" >&2; exit 2; }
  url="http://127.0.0.1:$port/mcp"
}
start "$bin" "$work/server.log"

status=0
echo "auth: TypeScript SDK client ($url, issuer $issuer)"
timeout --kill-after=5 120 node "$here/ts_client.mjs" "$url" "$issuer" || status=1
echo "auth: Python SDK client"
timeout --kill-after=5 120 "$venv/bin/python" "$here/py_client.py" "$url" "$issuer" || status=1
start "$gift" "$work/gift.log"
echo "auth: gift-server built with the auth feature ($url)"
timeout --kill-after=5 120 python3 "$here/gift_check.py" "$url" "$issuer" || { status=1; cat "$work/gift.log" >&2; }
if [[ $status -ne 0 ]]; then
  echo "auth: server log:" >&2
  cat "$work/server.log" >&2
fi
exit $status
