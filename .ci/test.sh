#!/usr/bin/env bash
# The README's test command: every Rust test of the workspace, then the tests that need a
# Python virtual environment (each .ci/*-test.sh script: the Python packages, the real MCP
# client, ...). Needs the Rust toolchain and Python 3 with venv; the scripts install the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
for script in .ci/*-test.sh; do
    echo "== $script"
    bash "$script"
done
