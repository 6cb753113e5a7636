#!/usr/bin/env bash
# The reference servers (servers/*, issue 27) against their originals: each server's own
# differential test, servers/NAME/difftest/run.sh, run in turn under its own time limit.
#
# Contract of a servers/NAME/difftest/run.sh:
#   - argument 1: the directory holding the built binaries ($CARGO_TARGET_DIR/debug);
#   - it installs the pinned original itself (npm or PyPI; versions pinned in files beside it,
#     npm with a lock file) into tests/reference/.cache/ (shared, ignored by git), each install
#     under `timeout`, with the functions of tests/reference/lib.sh;
#   - it runs one client script against the original and against ours and compares them,
#     printing one line per compared call, and exits non-zero on any difference that is not
#     in the server's documented differences list.
# Usage: tests/reference/run.sh BIN_DIR [NAME...]   (no names: every server that has a difftest)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin_dir="${1:?usage: tests/reference/run.sh BIN_DIR [NAME...]}"
shift
mkdir -p "$root/tests/reference/.cache"

names=("$@")
if [ "${#names[@]}" -eq 0 ]; then
  for script in "$root"/servers/*/difftest/run.sh; do
    [ -e "$script" ] || continue
    names+=("$(basename "$(dirname "$(dirname "$script")")")")
  done
fi
if [ "${#names[@]}" -eq 0 ]; then
  echo "tests/reference/run.sh: no servers/*/difftest/run.sh found" >&2
  exit 1
fi

failed=()
for name in "${names[@]}"; do
  script="$root/servers/$name/difftest/run.sh"
  if [ ! -x "$script" ]; then
    echo "tests/reference/run.sh: $script is missing or not executable" >&2
    exit 1
  fi
  printf '\n--> %s\n' "$name"
  start=$SECONDS
  rc=0
  timeout --kill-after=30 600 "$script" "$bin_dir" || rc=$?
  printf -- '--> %s: exit %d in %ds\n' "$name" "$rc" "$((SECONDS - start))"
  if [ "$rc" -ne 0 ]; then failed+=("$name"); fi
done

if [ "${#failed[@]}" -ne 0 ]; then
  echo "reference servers that differ from their originals: ${failed[*]}" >&2
  exit 1
fi
echo "every reference server matches its original (${names[*]})"
