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
# shellcheck source=../../../tests/reference/lib.sh
. "$root/tests/reference/lib.sh"
npm_dir="$(pinned_npm memory "$here")"
venv="$(pinned_venv memory "$here/requirements.txt")"

original="$npm_dir/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
timeout 300 "$venv/bin/python" "$here/difftest.py" "$original" "$ours"
