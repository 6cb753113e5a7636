#!/usr/bin/env bash
# Ours against the original side by side in one run (tests/reference/mcpbench.py): start-up,
# resident memory, convert_time calls/s over stdio.
# Needs the original installed by run.sh (tests/reference/.cache/venv-time) and ours built with
# `cargo build --release -p mcp-server-time`.
# Usage: servers/time/difftest/bench.sh [BIN_DIR]   (default: $CARGO_TARGET_DIR/release)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:-${CARGO_TARGET_DIR:-$root/target}/release}"
venv="$root/tests/reference/.cache/venv-time"
[ -x "$venv/bin/mcp-server-time" ] || { echo "run servers/time/difftest/run.sh first (installs the original)" >&2; exit 2; }
args='{"source_timezone":"UTC","time":"12:00","target_timezone":"Asia/Tokyo"}'
timeout 300 "$venv/bin/python" "$root/tests/reference/mcpbench.py" convert_time "$args" \
  -- "$venv/bin/mcp-server-time" --local-timezone UTC -- "$bin_dir/mcp-server-time" --local-timezone UTC stdio
