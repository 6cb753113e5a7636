#!/usr/bin/env bash
# The browser test of MCP Apps (see drive.mjs): installs the pinned npm packages on first use
# (playwright-core downloads no browser; it drives Debian's chromium, or $CHROMIUM), then runs
# the gift widget in both host dialects against the given gift-server binary. Screenshots go to
# OUT_DIR (default: target/apps-e2e).
#
# Usage: tests/apps/run.sh PATH/TO/gift-server [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${1:?usage: tests/apps/run.sh PATH/TO/gift-server [OUT_DIR]}"
out="${2:-${CARGO_TARGET_DIR:-$here/../../target}/apps-e2e}"
chromium="${CHROMIUM:-$(command -v chromium || true)}"
if [[ -z "$chromium" ]]; then
  echo "apps: no chromium (apt-get install -y chromium, or set CHROMIUM)" >&2
  exit 2
fi
if [[ ! -d "$here/node_modules/playwright-core" || ! -d "$here/node_modules/@modelcontextprotocol/sdk" ]]; then
  npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
fi
echo "apps: $("$chromium" --version), playwright-core $(cd "$here" && node -p 'require("./node_modules/playwright-core/package.json").version'), TypeScript SDK $(cd "$here" && node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version')"
CHROMIUM="$chromium" timeout 120 node "$here/drive.mjs" "$bin" "$out"
