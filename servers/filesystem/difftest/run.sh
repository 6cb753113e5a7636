#!/usr/bin/env bash
# The filesystem server against its original (@modelcontextprotocol/server-filesystem, pinned
# below), following the contract of tests/reference/run.sh: installs the original from npm
# into tests/reference/.cache/npm-filesystem and the official Python SDK client (mcp, pinned
# in requirements.txt) into a venv in tests/reference/.cache/venv-filesystem, each under a
# time limit, then runs difftest.py against both servers over stdio (and ours over HTTP).
# Exits non-zero on any difference that is not in the README's list of differences.
#
# Usage: servers/filesystem/difftest/run.sh BIN_DIR   (BIN_DIR holds mcp-server-filesystem)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:?usage: servers/filesystem/difftest/run.sh BIN_DIR}"
ours="$(cd "$bin_dir" && pwd)/mcp-server-filesystem"
original_version="2026.8.31"
cache="$root/tests/reference/.cache"
npm_dir="$cache/npm-filesystem"
venv="$cache/venv-filesystem"

if [[ ! -x "$ours" ]]; then
  echo "filesystem difftest: no binary at $ours; build it with: cargo build -p mcp-server-filesystem" >&2
  exit 2
fi
mkdir -p "$cache"
original="$npm_dir/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
installed="$(node -p "require('$npm_dir/node_modules/@modelcontextprotocol/server-filesystem/package.json').version" 2>/dev/null || true)"
if [[ "$installed" != "$original_version" ]]; then
  echo "filesystem difftest: installing @modelcontextprotocol/server-filesystem@$original_version"
  timeout 300 npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/server-filesystem@$original_version"
fi
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

timeout 300 "$venv/bin/python" "$here/difftest.py" "$original" "$ours" "$here/../README.md"
