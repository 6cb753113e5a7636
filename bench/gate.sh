#!/usr/bin/env bash
# The regression gate (issue 29): ours against the floor (bench/minimal, a hand-written tokio +
# serde_json server) on the core rows, `tools/call` over stdio and over Streamable HTTP, as
# ratios of instructions per call counted by callgrind (load-independent: the same on a busy
# machine). Each server runs twice, with N1 and N2 calls; a call's cost is the difference over
# N2 - N1 calls, so the start (runtime, registry, schemas) cancels out. It fails when a ratio is
# above its baseline (bench/gate-baseline.txt, measured with this script) times the threshold.
#
# Built with the dev profile (the one `.ci/run` has already compiled the workspace's dependencies
# with), so that the gate with its build stays within 3 minutes; the baseline is of that profile.
#
# Usage: bench/gate.sh                 measure, compare, exit 1 on a regression
#        bench/gate.sh --write         measure and write the baseline
# Environment: GATE_THRESHOLD (default 1.25), GATE_N1 / GATE_N2 (calls, default 300 / 1300),
#   GATE_LAYERS (ours' BENCH_LAYERS, default none; `burn` proves that the gate fails),
#   CARGO_TARGET_DIR. Needs valgrind (Debian's package; .ci/run installs it when missing).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${CARGO_TARGET_DIR:-$here/target}"
baseline="$here/gate-baseline.txt"
threshold="${GATE_THRESHOLD:-1.25}"
n1="${GATE_N1:-300}"
n2="${GATE_N2:-1300}"
layers="${GATE_LAYERS:-none}"
write=0
if [[ "${1:-}" == "--write" ]]; then write=1; fi

command -v valgrind >/dev/null || { echo "gate: valgrind is not installed" >&2; exit 2; }

echo "gate: cargo build (dev profile) bench-server, bench-minimal, bench" >&2
cargo build --quiet --locked --manifest-path "$here/Cargo.toml" \
  -p bench-server -p bench-minimal -p mcp-bench
bin="$target/debug"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The instructions callgrind counted in FILE.
total() {
  awk '/^(summary|totals):/ { print $2; exit }' "$1"
}

# Instructions of SERVER (ours, floor) over stdio serving the input of N calls.
stdio_run() {
  local server=$1 n=$2 exe
  if [[ $server == ours ]]; then exe="$bin/bench-server"; else exe="$bin/bench-minimal"; fi
  BENCH_LAYERS=$layers valgrind --tool=callgrind --callgrind-out-file="$work/cg.stdio.$server.$n" \
    "$exe" stdio <"$work/input.$n" >"$work/out.stdio.$server.$n" 2>"$work/err.stdio.$server.$n"
  # Every request answered: the calls and `initialize`.
  local answered
  answered=$(grep -c '"result"' "$work/out.stdio.$server.$n" || true)
  if [[ $answered -ne $((n + 1)) ]]; then
    echo "gate: $server over stdio answered $answered of $((n + 1)) requests" >&2
    cat "$work/err.stdio.$server.$n" >&2
    exit 2
  fi
  total "$work/cg.stdio.$server.$n"
}

# Instructions of SERVER over HTTP serving N calls on 4 connections (the driver checks every
# reply and fails otherwise).
http_run() {
  local server=$1 n=$2
  BENCH_LAYERS=$layers "$bin/bench" http "$server" --connections 4 --calls "$n" \
    --wrap "valgrind --tool=callgrind --callgrind-out-file=$work/cg.http.$server.$n" \
    >"$work/http.$server.$n" 2>&1 || { cat "$work/http.$server.$n" >&2; exit 2; }
  total "$work/cg.http.$server.$n"
}

"$bin/bench" input --calls "$n1" --lists 0 >"$work/input.$n1"
"$bin/bench" input --calls "$n2" --lists 0 >"$work/input.$n2"

declare -A ratio
for transport in stdio http; do
  declare -A per
  for server in ours floor; do
    a=$("${transport}_run" "$server" "$n1")
    b=$("${transport}_run" "$server" "$n2")
    per[$server]=$(( (b - a) / (n2 - n1) ))
  done
  ratio[$transport]=$(awk -v o="${per[ours]}" -v f="${per[floor]}" 'BEGIN { printf "%.3f", o / f }')
  printf 'gate: %-5s tools/call: ours %d, floor %d instructions per call: %sx the floor\n' \
    "$transport" "${per[ours]}" "${per[floor]}" "${ratio[$transport]}"
done

if [[ $write -eq 1 ]]; then
  {
    echo "# bench/gate.sh --write: ours / floor, instructions per tools/call (dev profile)"
    echo "stdio ${ratio[stdio]}"
    echo "http ${ratio[http]}"
  } >"$baseline"
  echo "gate: wrote $baseline"
  exit 0
fi

failed=0
for transport in stdio http; do
  base=$(awk -v t="$transport" '$1 == t { print $2 }' "$baseline")
  if [[ -z $base ]]; then
    echo "gate: no $transport baseline in $baseline" >&2
    exit 2
  fi
  limit=$(awk -v b="$base" -v t="$threshold" 'BEGIN { printf "%.3f", b * t }')
  if awk -v r="${ratio[$transport]}" -v l="$limit" 'BEGIN { exit !(r > l) }'; then
    echo "gate: FAIL: $transport ${ratio[$transport]}x the floor, above ${limit}x (baseline ${base}x, threshold ${threshold})" >&2
    failed=1
  else
    echo "gate: ok: $transport ${ratio[$transport]}x the floor (baseline ${base}x, limit ${limit}x)"
  fi
done
exit "$failed"
