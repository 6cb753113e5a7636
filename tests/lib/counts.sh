# Sourced by the interop scripts (tests/interop/run.sh, tests/scale-out/run.sh): runs one test
# client, shows its output and adds its closing `N passed, M failed` line to the caller's sums.
# The caller sets `passed=0 failed=0 status=0` and `out` (a scratch file) before the first call.
#
#   client LABEL COMMAND ARGS...
#
# A client that exits non-zero, or ends without a closing count (a crash, a `timeout` that
# fired), sets status=1; the missing count is counted as one failure.
client() {
  local label="$1" rc=0 counts
  shift
  "$@" | tee "$out" || rc=1
  counts="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1 || true)"
  if [[ -z "$counts" ]]; then
    echo "$label: no closing count from: $* (it crashed or timed out)" >&2
    failed=$((failed + 1))
    rc=1
  else
    passed=$((passed + ${counts%% passed*}))
    counts="${counts#* passed, }"
    failed=$((failed + ${counts%% failed}))
  fi
  [[ $rc -eq 0 ]] || status=1
}
