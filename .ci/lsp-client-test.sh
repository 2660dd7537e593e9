#!/usr/bin/env bash
# Real-client test of `physis lsp` with pytest-lsp (a pygls client over stdio).
# Creates its own virtual environment (under target/ unless LSP_VENV is set), installs
# pytest-lsp, builds the binary and runs crates/physis-lsp/tests/client/test_session.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${LSP_VENV:-$target/lsp-client-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check 'pytest-lsp>=1.0,<2'
cargo build --quiet --locked -p physis-cli --bin physis
PHYSIS_BIN="$target/debug/physis" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    -o asyncio_default_fixture_loop_scope=function \
    crates/physis-lsp/tests/client/test_session.py
