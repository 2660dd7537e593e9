#!/usr/bin/env bash
# The stiff work-precision tables of issue 20 in one command: builds the side-by-side harness
# (release), which times ours (bdf, radau5, rodas3, esdirk43; generated code and the
# interpreter) against diffsol's BDF and ESDIRK34 in interleaved rounds and runs SciPy's Radau,
# BDF and LSODA (bench/anchors/side_scipy.py) as a subprocess of the same run, then prints
# every table with its ratios and the equal-accuracy tables.
#
# usage: bench/run-stiff.sh [--rounds N] [--tolerances LIST] [--problems LIST] [--no-scipy]
#   defaults: 5 rounds, tolerances 1e-4,1e-6,1e-8,1e-10 (none below 1e-8 for the Brusselator),
#   every problem (robertson, van_der_pol, hires, heat, brusselator). Extra arguments go to
#   the harness (`cargo run -p bench --bin side_by_side -- --help`).
#
# SciPy and NumPy live in a venv under target/ (target/bench-venv), made on first use; the
# default test run never touches it.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$root/target/bench-venv"
args=(--stiff-only)
scipy=1
rounds=1
for a in "$@"; do
    case "$a" in
        --no-scipy) scipy=0 ;;
        --rounds|--rounds=*) rounds=0 ;;
    esac
done
[ "$rounds" = 1 ] && args+=(--rounds 5)
if [ "$scipy" = 1 ]; then
    if [ ! -x "$venv/bin/python" ]; then
        mkdir -p "$root/target"
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check numpy scipy
    args+=(--python "$venv/bin/python")
fi
cd "$root"
exec nice -n 10 cargo run --quiet --release -p bench --bin side_by_side -- "${args[@]}" "$@"
