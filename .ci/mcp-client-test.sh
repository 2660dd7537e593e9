#!/usr/bin/env bash
# Real-client test of `centl-physics --mcp` with the official Python MCP SDK.
# Creates its own virtual environment (under target/ unless MCP_VENV is set), installs `mcp`,
# builds the binary and runs crates/centl-cli/tests/mcp_client.py against it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${MCP_VENV:-$target/mcp-client-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp>=2.3,<3'
cargo build --quiet --locked -p centl-cli --bin centl-physics
"$venv/bin/python" crates/centl-cli/tests/mcp_client.py "$target/debug/centl-physics"
