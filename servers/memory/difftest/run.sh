#!/usr/bin/env bash
# servers/memory against the original @modelcontextprotocol/server-memory (tests/reference/run.sh
# calls this; contract there). Installs the original with `npm ci` from package.json and
# package-lock.json beside this file into tests/reference/.cache/npm-memory, and the official
# Python SDK client (requirements.txt) into tests/reference/.cache/venv-memory, each under a
# time limit; then difftest.py compares the two servers.
# Usage: servers/memory/difftest/run.sh BIN_DIR
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:?usage: servers/memory/difftest/run.sh BIN_DIR}"
ours="$bin_dir/mcp-server-memory"
[ -x "$ours" ] || { echo "no $ours (cargo build -p mcp-server-memory)" >&2; exit 2; }
cache="$root/tests/reference/.cache"
npm_dir="$cache/npm-memory"
venv="$cache/venv-memory"

mkdir -p "$npm_dir"
if ! cmp -s "$here/package-lock.json" "$npm_dir/package-lock.json" ||
  [ ! -d "$npm_dir/node_modules/@modelcontextprotocol/server-memory" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$npm_dir/"
  timeout 300 npm ci --prefix "$npm_dir" --no-audit --no-fund --loglevel=error
fi
if [ ! -x "$venv/bin/python" ]; then
  timeout 120 python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

original="$npm_dir/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
timeout 300 "$venv/bin/python" "$here/difftest.py" "$original" "$ours"
