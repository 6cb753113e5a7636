#!/usr/bin/env bash
# Differential test of mcp-server-git against the original (PyPI mcp-server-git, pinned in
# requirements.txt beside this script), following the contract of tests/reference/run.sh.
# Usage: servers/git/difftest/run.sh BIN_DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bin_dir="$(cd "${1:?usage: run.sh BIN_DIR}" && pwd)"
# shellcheck source=../../../tests/reference/lib.sh
. "$root/tests/reference/lib.sh"
echo "git difftest: installing the pinned original into tests/reference/.cache/venv-git"
venv="$(pinned_venv git "$here/requirements.txt")"
timeout --kill-after=10 300 "$venv/bin/python" "$here/diff_client.py" \
  "$venv/bin/python -m mcp_server_git" "$bin_dir/mcp-server-git" "$here/../README.md"
