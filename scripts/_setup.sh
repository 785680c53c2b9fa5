# Sourced by scripts/serve and scripts/test: a virtualenv with the project installed.
# Re-installs only when pyproject.toml changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.dealerroom-installed"
# One environment serves both commands (the test extras are small), so switching between
# them never reinstalls.
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || ! grep -qx -- "$want" "$stamp"; then
  echo "setting up .venv (first run only)..." >&2
  if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]" \
      > .venv/install.log 2>&1; then
    cat .venv/install.log >&2
    echo "setting up .venv failed (log above)" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
