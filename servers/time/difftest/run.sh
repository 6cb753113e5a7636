#!/usr/bin/env bash
# servers/time against the original mcp-server-time (tests/reference/run.sh calls this; contract
# there). Installs the original and the official Python SDK client, pinned with every dependency
# in requirements.txt beside this file, into the venv tests/reference/.cache/venv-time under a
# time limit; then difftest.py compares the two servers.
# Usage: servers/time/difftest/run.sh BIN_DIR
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="${1:?usage: servers/time/difftest/run.sh BIN_DIR}"
ours="$bin_dir/mcp-server-time"
[ -x "$ours" ] || { echo "no $ours (cargo build -p mcp-server-time)" >&2; exit 2; }
# shellcheck source=../../../tests/reference/lib.sh
. "$root/tests/reference/lib.sh"
venv="$(pinned_venv time "$here/requirements.txt")"

timeout 300 "$venv/bin/python" "$here/difftest.py" "$venv/bin/mcp-server-time" "$ours"
