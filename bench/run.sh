#!/usr/bin/env bash
# The benchmark, in one command: builds the bench workspace (release), installs the pinned
# TypeScript and Python SDKs on first use (npm ci into bench/ts, a venv in bench/py/.venv), runs
# every server (the floor, ours, rmcp, TS SDK, Python SDK) over stdio and Streamable HTTP, and
# prints the side-by-side table with the ratios to the floor and to rmcp (also written to
# bench/results/latest.md). See BENCHMARKS.md at the root of the repository.
#
# Usage: bench/run.sh [bench all options: --secs S --reps N --only floor,ours,... --sessions N]
#        bench/run.sh compile [--reps N]     the 50-tool build-time probe instead
# Needs: a stable Rust toolchain; Node 18+ with npm and Python 3.10+ for the SDK servers (each
# is skipped, with a note, when its runtime is missing). Respects CARGO_TARGET_DIR.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${CARGO_TARGET_DIR:-$here/target}"

echo "bench: cargo build --release (bench workspace)" >&2
cargo build --release --quiet --manifest-path "$here/Cargo.toml" --bins

if [[ "${1:-}" == "compile" ]]; then
  shift
  exec "$target/release/bench" compile "$@"
fi

if command -v npm >/dev/null; then
  if [[ ! -d "$here/ts/node_modules/@modelcontextprotocol/sdk" ]]; then
    echo "bench: installing the pinned TypeScript SDK (npm ci in bench/ts)" >&2
    (cd "$here/ts" && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
if command -v python3 >/dev/null; then
  if [[ ! -x "$here/py/.venv/bin/python" ]]; then
    echo "bench: installing the pinned Python SDK (venv in bench/py/.venv)" >&2
    python3 -m venv "$here/py/.venv"
    "$here/py/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/py/requirements.txt"
  fi
fi

exec "$target/release/bench" all "$@"
