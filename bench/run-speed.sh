#!/usr/bin/env bash
# Issue 23 in one command: every speed ratio measured in one run of each tool.
#
#   1. the side-by-side harness (A1, A3, A4 and the stiff work-precision tables: ours
#      generated and interpreted, fresh and with the run reused, diffsol, a hand DP5);
#   2. the ensembles (hand loop, interpreter lanes, generated lanes and member by member);
#   3. the time to a first result of `physis run examples/projectile.hph --summary`:
#      `perf stat -r N` of the default build, when perf is installed, else a loop timed by
#      /usr/bin/time.
#
# usage: bash bench/run-speed.sh [--rounds N] [--runs N] [--quick] [--no-ensembles] [--no-startup]
#   --rounds N      interleaved rounds of the side-by-side and ensemble tables (default 11)
#   --runs N        process starts measured for the startup figure (default 40)
#   --quick         one round, no SciPy, 10 process starts (a smoke test, not figures)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
rounds=11
runs=40
quick=0
ensembles=1
startup=1
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift ;;
        --runs) runs="$2"; shift ;;
        --quick) quick=1; rounds=1; runs=10 ;;
        --no-ensembles) ensembles=0 ;;
        --no-startup) startup=0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done
cd "$root"

echo "## Side by side (A1, A3, A4, stiff)"
side=(--rounds "$rounds")
if [ "$quick" = 1 ]; then
    side=(--quick)
elif [ ! -x bench/.venv/bin/python ]; then
    side+=(--no-scipy)
fi
nice -n 10 cargo run --release -q -p bench --bin side_by_side -- "${side[@]}"

if [ "$ensembles" = 1 ]; then
    echo
    echo "## Ensembles"
    nice -n 10 cargo bench -q -p rust-api --bench ensembles -- "$rounds"
fi

if [ "$startup" = 1 ]; then
    echo
    echo "## Startup: physis run examples/projectile.hph --summary, $runs runs"
    cargo build --release -q -p physis-cli
    bin="$root/target/release/physis"
    ls -l "$bin" | awk '{printf "binary: %.1f MB\n", $5 / 1e6}'
    if command -v perf > /dev/null && perf stat -e task-clock true > /dev/null 2>&1; then
        perf stat -r "$runs" -e task-clock,page-faults,major-faults \
            "$bin" run examples/projectile.hph --summary > /dev/null
    else
        # One line per run: user+system CPU seconds and minor faults; then their median.
        for _ in $(seq "$runs"); do
            /usr/bin/time -f "%U %S %R" "$bin" run examples/projectile.hph --summary 2>&1 \
                > /dev/null | tail -1
        done | awk '{cpu[NR] = ($1 + $2) * 1000; f[NR] = $3}
            END {n = asort(cpu); asort(f);
                 printf "CPU ms: median %.1f, max %.1f; minor faults median %d\n",
                        cpu[int((n + 1) / 2)], cpu[n], f[int((n + 1) / 2)]}'
    fi
fi
