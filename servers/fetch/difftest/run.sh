#!/usr/bin/env bash
# Differential test of mcp-server-fetch against the original (PyPI mcp-server-fetch, pinned in
# requirements.txt beside this script), following the contract of tests/reference/run.sh.
# Usage: servers/fetch/difftest/run.sh BIN_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="$(cd "${1:?usage: run.sh BIN_DIR}" && pwd)"
# shellcheck source=../../../tests/reference/lib.sh
. "$root/tests/reference/lib.sh"
echo "fetch difftest: installing the pinned original into tests/reference/.cache/venv-fetch"
venv="$(pinned_venv fetch "$here/requirements.txt")"
timeout --kill-after=10 300 "$venv/bin/python" "$here/diff_client.py" \
  "$venv/bin/python -m mcp_server_fetch" "$bin_dir/mcp-server-fetch" "$here/../README.md"
