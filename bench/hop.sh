#!/usr/bin/env bash
# The gateway hop of issue 29, in one command: builds the bench workspace (release) and the main
# workspace's `mcp-proxy` (release) into the same target directory, then runs `bench hop`:
# `tools/call echo` against the floor directly, through bench-relay (stdio) and through
# mcp-proxy (HTTP), interleaved, medians (table also in bench/results/hop.md). BENCHMARKS.md,
# section "Gateway hop (issue 29)".
#
# Usage: bench/hop.sh [--secs S] [--reps N]
#        bench/hop.sh callgrind [--calls N]   the proxy's instructions per call (valgrind)
# Respects CARGO_TARGET_DIR.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
bin="$CARGO_TARGET_DIR/release"

echo "hop: cargo build --release (bench workspace, and mcp-proxy of the main workspace)" >&2
cargo build --release --quiet --manifest-path "$here/Cargo.toml" -p mcp-bench -p bench-minimal -p bench-relay
cargo build --release --quiet --manifest-path "$here/../Cargo.toml" -p mcp-proxy

if [[ "${1:-}" == "callgrind" ]]; then
  shift
  calls=20000
  if [[ "${1:-}" == "--calls" ]]; then calls="$2"; fi
  out="$here/results"
  mkdir -p "$out"
  # Two call counts; the difference divided by the calls between them is the per-call cost,
  # start-up and shutdown cancelled out. Only the front process is counted (no
  # --trace-children): the proxy's or the relay's instructions, not the floor's.
  for n in "$calls" "$((calls * 2))"; do
    for key in proxy relay; do
      mode=http; flag=(--connections 1 --calls "$n")
      if [[ "$key" == relay ]]; then mode=stdio; flag=(--window 1 --secs 3); fi
      rm -f "$out/callgrind.$key.$n"
      "$bin/bench" "$mode" "$key" "${flag[@]}" \
        --wrap "valgrind --tool=callgrind --callgrind-out-file=$out/callgrind.$key.$n" >&2
      echo "$key $n calls: $(callgrind_annotate "$out/callgrind.$key.$n" 2>/dev/null | grep -m1 'PROGRAM TOTALS')"
    done
  done
  exit 0
fi

exec "$bin/bench" hop "$@"
