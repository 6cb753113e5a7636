#!/usr/bin/env bash
# Differential test of mcp-server-fetch against the original (PyPI mcp-server-fetch, pinned in
# requirements.txt beside this script), following the contract of tests/reference/run.sh.
# Usage: servers/fetch/difftest/run.sh BIN_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="$(cd "${1:?usage: run.sh BIN_DIR}" && pwd)"
venv="$root/tests/reference/.cache/venv-fetch"
if [[ ! -x "$venv/bin/python" ]]; then
  timeout 120 python3 -m venv "$venv"
fi
echo "fetch difftest: installing the pinned original into $venv"
timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
timeout --kill-after=10 300 "$venv/bin/python" "$here/diff_client.py" \
  "$venv/bin/python -m mcp_server_fetch" "$bin_dir/mcp-server-fetch" "$here/../README.md"
