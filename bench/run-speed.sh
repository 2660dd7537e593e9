#!/usr/bin/env bash
# Issue 23 in one command: every speed ratio measured in one run of each tool.
#
#   1. the side-by-side harness (A1, A3, A4 and the stiff work-precision tables: ours
#      generated and interpreted, fresh and with the run reused, diffsol, a hand DP5);
#   2. the ensembles (hand loop, interpreter lanes, generated lanes and member by member);
#   3. the time to a first result of `physis run examples/projectile.hph --summary`, default
#      and lean (--no-default-features) builds beside `true` (the floor of any process):
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
# The Brusselator's 8,192 states take many minutes a row: `bash bench/run-stiff.sh` has it.
side=(--rounds "$rounds" --tables a1,a3,a4 --problems robertson,van_der_pol,hires,heat)
if [ "$quick" = 1 ]; then
    side=(--quick)
elif [ -x target/bench-venv/bin/python ]; then
    side+=(--python target/bench-venv/bin/python)
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
    echo "## Startup: physis run examples/projectile.hph --summary, $runs runs each, interleaved"
    # The lean build (no plots, Parquet, studio, JIT) first, kept aside; then the default one.
    cargo build --release -q -p physis-cli --no-default-features
    cp target/release/physis target/release/physis-lean
    cargo build --release -q -p physis-cli
    bins=("$root/target/release/physis" "$root/target/release/physis-lean")
    for b in "${bins[@]}"; do
        ls -l "$b" | awk -v n="$(basename "$b")" '{printf "%s: %.1f MB\n", n, $5 / 1e6}'
    done
    if command -v perf > /dev/null && perf stat -e task-clock true > /dev/null 2>&1; then
        # `true` is the floor of starting any process on this machine; three interleaved
        # passes of `perf stat -r N` each, task-clock (CPU) and page faults.
        for pass in 1 2 3; do
            for b in /usr/bin/true "${bins[@]}"; do
                args=(run examples/projectile.hph --summary)
                [ "$b" = /usr/bin/true ] && args=()
                perf stat -x, -r "$runs" -e task-clock,page-faults "$b" "${args[@]}" 2>&1 \
                    > /dev/null | awk -F, -v n="$(basename "$b")" -v p="$pass" '
                        /task-clock/ {ms = $1} /page-faults/ {pf = $1}
                        END {printf "pass %d  %-12s %6.2f ms CPU  %5d page faults\n", p, n, ms, pf}'
            done
        done
        # Spikes: the slowest of N single runs of the default build.
        for _ in $(seq "$runs"); do
            perf stat -x, -e task-clock "${bins[0]}" run examples/projectile.hph --summary 2>&1 \
                > /dev/null | awk -F, '/task-clock/ {print $1}'
        done | sort -g | awk '{a[NR] = $1} END {printf "physis single runs: median %.2f ms, max %.2f ms (n = %d)\n", a[int((NR + 1) / 2)], a[NR], NR}'
    else
        # One line per run: user+system CPU seconds and minor faults; then their median.
        for _ in $(seq "$runs"); do
            /usr/bin/time -f "%U %S %R" "${bins[0]}" run examples/projectile.hph --summary 2>&1 \
                > /dev/null | tail -1
        done | awk '{cpu[NR] = ($1 + $2) * 1000; f[NR] = $3}
            END {n = asort(cpu); asort(f);
                 printf "CPU ms: median %.1f, max %.1f; minor faults median %d\n",
                        cpu[int((n + 1) / 2)], cpu[n], f[int((n + 1) / 2)]}'
    fi
fi
