# Sourced by servers/NAME/difftest/run.sh once it has set $root (the checkout): the pinned
# installs every differential test makes, each under a time limit, into tests/reference/.cache/
# (shared by the servers, ignored by git). Each prints the directory it made on stdout and
# everything else on stderr, so `dir="$(pinned_... )"` fails the script when the install fails.

reference_cache="$root/tests/reference/.cache"

# pinned_venv NAME REQUIREMENTS: a venv at .cache/venv-NAME with the pinned REQUIREMENTS (the
# official Python SDK client, and the original when it is a PyPI package).
pinned_venv() {
  local venv="$reference_cache/venv-$1"
  mkdir -p "$reference_cache"
  if [ ! -x "$venv/bin/python" ]; then
    timeout 120 python3 -m venv "$venv" >&2
  fi
  timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$2" >&2
  printf '%s\n' "$venv"
}

# pinned_npm NAME DIR: `npm ci` of DIR's package.json and package-lock.json (every package
# pinned) into .cache/npm-NAME; again only when the lock file differs from the one last
# installed there.
pinned_npm() {
  local dir="$reference_cache/npm-$1"
  mkdir -p "$dir"
  if ! cmp -s "$2/package-lock.json" "$dir/.installed-lock.json"; then
    rm -f "$dir/.installed-lock.json"
    cp "$2/package.json" "$2/package-lock.json" "$dir/"
    timeout 300 npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >&2
    cp "$2/package-lock.json" "$dir/.installed-lock.json"
  fi
  printf '%s\n' "$dir"
}
