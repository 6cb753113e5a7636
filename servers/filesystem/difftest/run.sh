#!/usr/bin/env bash
# The filesystem server against its original (@modelcontextprotocol/server-filesystem, pinned
# with every dependency in package.json and package-lock.json beside this file), following the
# contract of tests/reference/run.sh: installs the original with `npm ci` into
# tests/reference/.cache/npm-filesystem and the official Python SDK client (mcp, pinned
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

if [[ ! -x "$ours" ]]; then
  echo "filesystem difftest: no binary at $ours; build it with: cargo build -p mcp-server-filesystem" >&2
  exit 2
fi
# shellcheck source=../../../tests/reference/lib.sh
. "$root/tests/reference/lib.sh"
npm_dir="$(pinned_npm filesystem "$here")"
venv="$(pinned_venv filesystem "$here/requirements.txt")"
original="$npm_dir/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

timeout 300 "$venv/bin/python" "$here/difftest.py" "$original" "$ours" "$here/../README.md"
