#!/usr/bin/env bash
# ARCHITECTURE.md must stay true: every path it names in backticks must exist.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=0
while IFS= read -r path; do
  if [ ! -e "$path" ]; then
    echo "ARCHITECTURE.md names a missing path: $path" >&2
    missing=1
  fi
done < <(grep -oE '`(crates|examples|docs|bench|tests|\.ci)/[^`]*`' ARCHITECTURE.md | tr -d '`' | sort -u)
exit $missing
