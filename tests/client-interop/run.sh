#!/usr/bin/env bash
# Our client against the official TypeScript everything server (npm
# @modelcontextprotocol/server-everything, pinned in package.json), over stdio (spawned) and
# over Streamable HTTP, through examples/mcp-call. Each check compares exact output.
#
# Then the same server behind our gateway, examples/mcp-proxy (the stdio server mounted on an HTTP
# server of ours): our client reaches it over HTTP in both eras, the stateless one included,
# which the server itself does not speak.
#
# usage: tests/client-interop/run.sh [PATH/TO/mcp-call [PATH/TO/mcp-proxy]]
#
# Builds nothing (cargo build -p mcp-call -p mcp-proxy); installs the pinned server on first use
# (npm ci --prefix tests/client-interop). Needs Node 18+. Each check has a time limit (60 s); a
# missing binary or a server that does not start fails the run.
#
# The TypeScript server (SDK 1.x) speaks the handshake era only: the client negotiates
# (server/discover is refused, it falls back to initialize), or is told a dated revision; asked
# for 2026-07-28 alone it must fail cleanly (exit 3), which is checked too.

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
call=${1:-${CARGO_TARGET_DIR:-$root/target}/debug/mcp-call}
proxy=${2:-$(dirname "$call")/mcp-proxy}
server="$here/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

[[ -x $call ]] || { echo "client-interop: no mcp-call at $call (cargo build -p mcp-call)" >&2; exit 2; }
[[ -x $proxy ]] || { echo "client-interop: no mcp-proxy at $proxy (cargo build -p mcp-proxy)" >&2; exit 2; }
if [[ ! -f $server ]]; then
  timeout 300 npm ci --prefix "$here" --no-audit --no-fund --loglevel=error || exit 2
fi

failures=0
passed=0
# check LABEL EXPECTED_EXIT EXPECTED_LINE -- mcp-call arguments...: the exit code, and one line of
# the output equal to EXPECTED_LINE (an extended regular expression when it starts with `^`).
check() {
  local label=$1 want_rc=$2 want=$3
  shift 4
  local out rc
  out=$(timeout 60 "$call" --timeout 20 "$@" 2>/dev/null)
  rc=$?
  local found
  if [[ $want == ^* ]]; then
    grep -qE -- "$want" <<<"$out"
  else
    grep -qxF -- "$want" <<<"$out"
  fi
  found=$?
  if [[ $rc -ne $want_rc || $found -ne 0 ]]; then
    echo "  ✗ $label: exit $rc (want $want_rc); output:" >&2
    sed 's/^/      /' <<<"$out" | head -20 >&2
    echo "    wanted the line: $want" >&2
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

# The same conversation over one target (the target's words, then a label).
conversation() {
  local via=$1
  shift
  check "$via: negotiated revision" 0 '  "protocolVersion": "2025-11-25",' -- "$@" info
  check "$via: server name" 0 '    "name": "mcp-servers/everything",' -- "$@" info
  check "$via: list" 0 'tool echo' -- "$@" list
  check "$via: list (templates)" 0 'template demo://resource/dynamic/text/{resourceId}' -- "$@" list
  check "$via: list (prompts)" 0 'prompt args-prompt' -- "$@" list
  check "$via: call echo" 0 'Echo: hi' -- "$@" call echo '{"message":"hi"}'
  check "$via: call get-sum" 0 'The sum of 2 and 3 is 5.' -- "$@" call get-sum '{"a":2,"b":3}'
  check "$via: progress tool" 0 'Long running operation completed. Duration: 1 seconds, Steps: 2.' \
    -- "$@" call trigger-long-running-operation '{"duration":1,"steps":2}'
  check "$via: read" 0 '^Resource 7: This is a plaintext resource created at [0-9:]+ [AP]M$' \
    -- "$@" read demo://resource/dynamic/text/7
  check "$via: prompt" 0 "user: What's weather in Paris?" -- "$@" prompt args-prompt '{"city":"Paris"}'
  check "$via: unknown tool (an isError result)" 1 'MCP error -32602: Tool no-such-tool not found' \
    -- "$@" call no-such-tool '{}'
}

echo "client-interop: stdio"
stdio=(-- node "$server" stdio --)
conversation "stdio negotiated" "${stdio[@]}"
conversation "stdio 2025-11-25" --protocol-version 2025-11-25 "${stdio[@]}"
check "stdio 2025-06-18: call echo" 0 'Echo: old' -- --protocol-version 2025-06-18 "${stdio[@]}" call echo '{"message":"old"}'
check "stdio 2026-07-28 alone is refused" 3 '' -- --protocol-version 2026-07-28 "${stdio[@]}" info

port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
PORT=$port node "$server" streamableHttp >/dev/null 2>&1 &
pid=$!
proxy_pid=
trap 'kill $pid $proxy_pid 2>/dev/null; wait $pid $proxy_pid 2>/dev/null' EXIT
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "client-interop: the TypeScript everything server does not answer on port $port after 10 s" >&2
  exit 2
fi
url="http://127.0.0.1:$port/mcp"
echo "client-interop: Streamable HTTP at $url"
conversation "http negotiated" "$url"
conversation "http 2025-11-25" --protocol-version 2025-11-25 "$url"
check "http 2025-03-26: call echo" 0 'Echo: old' -- --protocol-version 2025-03-26 "$url" call echo '{"message":"old"}'
check "http 2026-07-28 alone is refused" 3 '' -- --protocol-version 2026-07-28 "$url" info

# The stdio server behind mcp-proxy: its tools as they are, over our HTTP endpoint.
proxy_out=$(mktemp)
"$proxy" http 127.0.0.1:0 -- node "$server" stdio >"$proxy_out" 2>/dev/null &
proxy_pid=$!
proxy_url=
for _ in $(seq 200); do
  proxy_url=$(sed -n 's/^listening on //p' "$proxy_out")
  [[ -n $proxy_url ]] && break
  sleep 0.1
done
rm -f "$proxy_out"
if [[ -z $proxy_url ]]; then
  echo "  ✗ mcp-proxy did not announce its URL within 20 s" >&2
  failures=$((failures + 1))
else
  echo "client-interop: the stdio server behind mcp-proxy at $proxy_url"
  for rev in 2026-07-28 2025-11-25; do
    via=(--protocol-version "$rev" "$proxy_url")
    check "proxy $rev: revision" 0 "  \"protocolVersion\": \"$rev\"," -- "${via[@]}" info
    check "proxy $rev: server name" 0 '    "name": "mcp-servers/everything",' -- "${via[@]}" info
    check "proxy $rev: list" 0 'tool echo' -- "${via[@]}" list
    check "proxy $rev: list (templates)" 0 'template demo://resource/dynamic/text/{resourceId}' -- "${via[@]}" list
    check "proxy $rev: call echo" 0 'Echo: hi' -- "${via[@]}" call echo '{"message":"hi"}'
    check "proxy $rev: progress tool" 0 'Long running operation completed. Duration: 1 seconds, Steps: 2.' \
      -- "${via[@]}" call trigger-long-running-operation '{"duration":1,"steps":2}'
    check "proxy $rev: read" 0 '^Resource 7: This is a plaintext resource created at [0-9:]+ [AP]M$' \
      -- "${via[@]}" read demo://resource/dynamic/text/7
    check "proxy $rev: prompt" 0 "user: What's weather in Paris?" -- "${via[@]}" prompt args-prompt '{"city":"Paris"}'
  done
  check "proxy: negotiated revision" 0 '  "protocolVersion": "2026-07-28",' -- "$proxy_url" info
fi

echo "client-interop: $passed checks passed, $failures failed"
((failures == 0))
