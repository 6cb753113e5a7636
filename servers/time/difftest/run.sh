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
venv="$root/tests/reference/.cache/venv-time"

if [ ! -x "$venv/bin/python" ]; then
  timeout 120 python3 -m venv "$venv"
fi
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

timeout 300 "$venv/bin/python" "$here/difftest.py" "$venv/bin/mcp-server-time" "$ours"
