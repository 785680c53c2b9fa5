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
want="$(sha256sum pyproject.toml | cut -d' ' -f1)-${1:-run}"
if [ ! -f "$stamp" ] || ! grep -qx -- "$want" "$stamp"; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null
  if [ "${1:-run}" = test ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
  else
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
  fi
  echo "$want" >> "$stamp"
fi
