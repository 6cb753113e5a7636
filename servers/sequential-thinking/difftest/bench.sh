#!/usr/bin/env bash
# Ours against the original side by side in one run (tests/reference/mcpbench.py): start-up,
# resident sequential-thinking, sequentialthinking calls/s over stdio.
# Needs the original installed by run.sh (tests/reference/.cache) and ours built with
# `cargo build --release -p mcp-server-sequential-thinking`.
# Usage: servers/sequential-thinking/difftest/bench.sh [BIN_DIR]   (default: $CARGO_TARGET_DIR/release)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:-${CARGO_TARGET_DIR:-$root/target}/release}"
cache="$root/tests/reference/.cache"
original="$cache/npm-sequential-thinking/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
[ -f "$original" ] || { echo "run servers/sequential-thinking/difftest/run.sh first (installs the original)" >&2; exit 2; }
args='{"thought":"Consider the next step","nextThoughtNeeded":true,"thoughtNumber":1,"totalThoughts":3}'
DISABLE_THOUGHT_LOGGING=true timeout 300 "$cache/venv-sequential-thinking/bin/python" "$root/tests/reference/mcpbench.py" \
  sequentialthinking "$args" -- node "$original" -- "$bin_dir/mcp-server-sequential-thinking" stdio
