#!/usr/bin/env bash
# The Python packages' tests: creates a virtual environment (under target/ unless
# PYTHON_VENV is set), installs python/requirements.txt, builds and installs the `physis`
# and `centl` packages from crates/physis-py with maturin, and runs pytest on python/tests
# (a real Dask LocalCluster of two worker processes included).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${PYTHON_VENV:-$target/python-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r python/requirements.txt
# A debug build installed in place: the release build that `pip install ./crates/physis-py`
# makes on a user's machine is much slower to compile (docs/python.md gives both).
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$venv/bin/maturin" develop --quiet --locked -m crates/physis-py/Cargo.toml
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
