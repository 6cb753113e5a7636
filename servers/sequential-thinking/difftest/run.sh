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
# shellcheck source=../../../tests/reference/lib.sh
. "$root/tests/reference/lib.sh"
npm_dir="$(pinned_npm sequential-thinking "$here")"
venv="$(pinned_venv sequential-thinking "$here/requirements.txt")"

original="$npm_dir/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js"
timeout 300 "$venv/bin/python" "$here/difftest.py" "$original" "$ours"
