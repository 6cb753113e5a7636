#!/usr/bin/env bash
# Ours against the original side by side in one run (tests/reference/mcpbench.py): start-up,
# resident memory, create_entities calls/s over stdio, each server on a fresh memory file.
# Needs the original installed by run.sh (tests/reference/.cache) and ours built with
# `cargo build --release -p mcp-server-memory`.
# Usage: servers/memory/difftest/bench.sh [BIN_DIR]   (default: $CARGO_TARGET_DIR/release)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:-${CARGO_TARGET_DIR:-$root/target}/release}"
cache="$root/tests/reference/.cache"
original="$cache/npm-memory/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
[ -f "$original" ] || { echo "run servers/memory/difftest/run.sh first (installs the original)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
args='{"entities":[{"name":"Ann","entityType":"person","observations":["likes tea"]}]}'
MEMORY_FILE_PATH="$work/bench.jsonl" timeout 300 "$cache/venv-memory/bin/python" "$root/tests/reference/mcpbench.py" \
  create_entities "$args" -- node "$original" -- "$bin_dir/mcp-server-memory" stdio
