#!/usr/bin/env bash
# servers/sequential-thinking against the original @modelcontextprotocol/server-sequential-thinking (tests/reference/run.sh
# calls this; contract there). Installs the original with `npm ci` from package.json and
# package-lock.json beside this file into tests/reference/.cache/npm-sequential-thinking, and the official
# Python SDK client (requirements.txt) into tests/reference/.cache/venv-sequential-thinking, each under a
# time limit; then difftest.py compares the two servers.
# Usage: servers/sequential-thinking/difftest/run.sh BIN_DIR
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:?usage: servers/sequential-thinking/difftest/run.sh BIN_DIR}"
ours="$bin_dir/mcp-server-sequential-thinking"
[ -x "$ours" ] || { echo "no $ours (cargo build -p mcp-server-sequential-thinking)" >&2; exit 2; }
cache="$root/tests/reference/.cache"
npm_dir="$cache/npm-sequential-thinking"
venv="$cache/venv-sequential-thinking"

mkdir -p "$npm_dir"
if ! cmp -s "$here/package-lock.json" "$npm_dir/package-lock.json" ||
  [ ! -d "$npm_dir/node_modules/@modelcontextprotocol/server-sequential-thinking" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$npm_dir/"
  timeout 300 npm ci --prefix "$npm_dir" --no-audit --no-fund --loglevel=error
fi
if [ ! -x "$venv/bin/python" ]; then
  timeout 120 python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

original="$npm_dir/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
timeout 300 "$venv/bin/python" "$here/difftest.py" "$original" "$ours"
