#!/usr/bin/env bash
# Requests per second of `centl-physics --serve` over a pipe, for `convert` and
# `certify_linear_sphere_contact` (rational and quadratic-irrational cases).
# Usage: bench/serve_throughput.sh [N]   (N requests per action, default 20000)
# Builds the release binary first. Prints one line per action: requests, seconds, requests/s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
n="${1:-20000}"
target="${CARGO_TARGET_DIR:-$root/target}"
cargo build --quiet --release -p centl-cli --bin centl-physics
bin="$target/release/centl-physics"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sphere() { # id x y r
    printf '{"id":"%s","mass":{"value":"1","unit":"kg"},"position":{"value":["%s","%s","0"],"unit":"m"},"velocity":{"value":["%s","0","0"],"unit":"m/s"},"radius":{"value":"%s","unit":"m"}}' "$1" "$2" "$3" "$4" "$5"
}
convert='{"v":1,"id":1,"action":"convert","args":{"value":"72","from":"km/h","to":"m/s"}}'
rational="{\"v\":1,\"id\":2,\"action\":\"certify_linear_sphere_contact\",\"args\":{\"first\":$(sphere a 0 0 1 1/2),\"second\":$(sphere b 3 0 0 1/2),\"duration\":{\"value\":\"5\",\"unit\":\"s\"}}}"
irrational="{\"v\":1,\"id\":3,\"action\":\"certify_linear_sphere_contact\",\"args\":{\"first\":$(sphere a 0 0 1 1),\"second\":$(sphere b 3 1 0 1/2),\"duration\":{\"value\":\"5\",\"unit\":\"s\"}}}"

run() { # name line
    local file="$work/${1//\//_}.jsonl"
    { yes "$2" || true; } | head -n "$n" > "$file"
    local start end
    start=$(date +%s.%N)
    local ok
    ok=$("$bin" --serve < "$file" | grep -c '"ok":true')
    end=$(date +%s.%N)
    if [ "$ok" != "$n" ]; then
        echo "$1: only $ok of $n requests succeeded" >&2
        exit 1
    fi
    awk -v name="$1" -v n="$n" -v s="$start" -v e="$end" \
        'BEGIN { t = e - s; printf "%-36s %8d requests %8.3f s %10.0f req/s\n", name, n, t, n / t }'
}

run convert "$convert"
run certify_linear_sphere_contact/rational "$rational"
run certify_linear_sphere_contact/irrational "$irrational"
