#!/usr/bin/env bash
# The gateway hop of issue 29, in one command: builds the bench workspace (release) and the main
# workspace's `mcp-proxy` (release) into the same target directory, then runs `bench hop`:
# `tools/call echo` against the floor directly, through bench-relay (stdio) and through
# mcp-proxy (HTTP), interleaved, medians (table also in bench/results/hop.md). BENCHMARKS.md,
# section "Gateway hop (issue 29)".
#
# Usage: bench/hop.sh [--secs S] [--reps N]
#        bench/hop.sh callgrind [--calls N]   instructions per call of mcp-proxy and of the floor
#                                             over HTTP (valgrind's callgrind)
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
  calls=5000
  if [[ "${1:-}" == "--calls" ]]; then calls="$2"; fi
  out="$here/results"
  mkdir -p "$out"
  # Over HTTP, one connection, a fixed number of calls, twice: the difference divided by the
  # calls between the two runs is the per-call cost, start-up and shutdown cancelled out. Only
  # the front process is counted (no --trace-children): the proxy's instructions, not the
  # floor's behind it; the floor alone over HTTP for scale.
  for key in proxy floor; do
    total=()
    for n in "$calls" "$((calls * 2))"; do
      file="$out/callgrind.$key.$n"
      rm -f "$file"
      "$bin/bench" http "$key" --connections 1 --calls "$n" \
        --wrap "valgrind --tool=callgrind --callgrind-out-file=$file" >&2
      total+=("$(callgrind_annotate "$file" | awk '/PROGRAM TOTALS/ && !n++ {gsub(",", "", $1); print $1}')")
    done
    echo "$key: $(( (total[1] - total[0]) / calls )) instructions per call (HTTP, 1 connection; $file)"
  done
  exit 0
fi

exec "$bin/bench" hop "$@"
