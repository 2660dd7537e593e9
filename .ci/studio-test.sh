#!/usr/bin/env bash
# End-to-end test of `physis studio` in headless Chromium. Installs Debian's `chromium` when
# /usr/bin/chromium is missing (CI runs as root), checks that the committed editor bundle
# (crates/physis-cli/studio-web/dist/studio.js) is what its sources and lock file build to,
# installs playwright-core from the committed lock file, builds the binary and runs
# crates/physis-cli/tests/studio-browser/studio.test.mjs. Screenshots: target/studio-screenshots.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

web=crates/physis-cli/studio-web
committed="$(mktemp)"
trap 'rm -f "$committed"' EXIT
cp "$web/dist/studio.js" "$committed"
(cd "$web" && npm ci --silent --no-audit --no-fund && npm run --silent build >/dev/null 2>&1)
if ! cmp -s "$committed" "$web/dist/studio.js"; then
    cp "$committed" "$web/dist/studio.js"
    echo "the committed $web/dist/studio.js differs from a rebuild: run \`npm ci && npm run build\` in $web and commit it" >&2
    exit 1
fi

browser_test=crates/physis-cli/tests/studio-browser
(cd "$browser_test" && npm ci --silent --no-audit --no-fund)
cargo build --quiet --locked -p physis-cli --bin physis
PHYSIS_BIN="$target/debug/physis" SCREENSHOTS="$target/studio-screenshots" \
    node "$browser_test/studio.test.mjs"
