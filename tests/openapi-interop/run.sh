#!/usr/bin/env bash
# Generated tools in front of real HTTP APIs that nobody here wrote (issue 28): the FastAPI
# application app.py (PyPI fastapi + uvicorn, pinned in requirements.txt), whose own
# /openapi.json is the document, and the Swagger Petstore 3 document (petstore/openapi.yaml,
# vendored; see petstore/README.md) served by the Prism mock (npm @stoplight/prism-cli, pinned
# in petstore/package-lock.json). Each is served with `ServerBuilder::openapi` in process and by
# `mcp-proxy --openapi DOC --base-url URL stdio`, driven by our client
# (examples/mcp-proxy/examples/openapi_check); then the official Python SDK client (PyPI mcp,
# pinned) calls the FastAPI tools through mcp-proxy over stdio and over HTTP (check.py).
#
# usage: tests/openapi-interop/run.sh [PATH/TO/openapi_check [PATH/TO/mcp-proxy]]
#
# Builds nothing (cargo build -p mcp-proxy --example openapi_check --bins). Installs what is
# missing (tests/reference/lib.sh: pinned_venv, pinned_npm), each install and each run under a
# time limit; the API servers listen on 127.0.0.1 and are stopped on exit. Needs Node 18+ and
# Python 3.10+.

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
check=${1:-$target/debug/examples/openapi_check}
proxy=${2:-$target/debug/mcp-proxy}
# shellcheck source=../reference/lib.sh
source "$root/tests/reference/lib.sh"

[[ -x $check ]] || { echo "openapi-interop: no openapi_check at $check (cargo build -p mcp-proxy --example openapi_check)" >&2; exit 2; }
[[ -x $proxy ]] || { echo "openapi-interop: no mcp-proxy at $proxy (cargo build -p mcp-proxy)" >&2; exit 2; }
venv="$(pinned_venv openapi "$here/requirements.txt")" || exit 2
mock="$(pinned_npm openapi-prism "$here/petstore")" || exit 2

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done' EXIT
free_port() {
  "$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# wait_for URL: until URL answers, with any status (30 s at most).
wait_for() {
  "$venv/bin/python" - "$1" <<'PY'
import sys, time, urllib.error, urllib.request
for _ in range(300):
    try:
        urllib.request.urlopen(sys.argv[1], timeout=1).read()
        sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit(1)
PY
}

failures=0
port=$(free_port)
timeout 900 "$venv/bin/python" "$here/app.py" "$port" &
pids+=($!)
base="http://127.0.0.1:$port"
if wait_for "$base/openapi.json"; then
  echo "openapi-interop: FastAPI $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("fastapi"))'), its /openapi.json, our client"
  timeout --kill-after=10 300 "$check" fastapi "$proxy" "$base/openapi.json" "$base" || failures=$((failures + 1))
  echo "openapi-interop: the official Python SDK client through mcp-proxy --openapi (stdio, HTTP)"
  timeout --kill-after=10 300 "$venv/bin/python" "$here/check.py" "$proxy" "$base/openapi.json" || failures=$((failures + 1))
else
  echo "openapi-interop: the FastAPI application did not start on $base" >&2
  failures=$((failures + 1))
fi

port=$(free_port)
timeout 900 "$mock/node_modules/.bin/prism" mock --host 127.0.0.1 --port "$port" "$here/petstore/openapi.yaml" >"$mock/prism.log" 2>&1 &
pids+=($!)
base="http://127.0.0.1:$port"
if wait_for "$base/user/logout"; then
  echo "openapi-interop: the Petstore 3 document on the Prism mock, our client"
  timeout --kill-after=10 300 "$check" petstore "$proxy" "$here/petstore/openapi.yaml" "$base" || failures=$((failures + 1))
else
  echo "openapi-interop: the Prism mock did not start on $base" >&2
  cat "$mock/prism.log" >&2
  failures=$((failures + 1))
fi
((failures == 0))
