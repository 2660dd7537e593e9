#!/usr/bin/env bash
# The stiff work-precision tables of issue 20 in one command: builds the side-by-side harness
# (release), which times ours (bdf, radau5, rodas3, esdirk43; generated code and the
# interpreter) against diffsol's BDF and ESDIRK34 in interleaved rounds and runs SciPy's Radau,
# BDF and LSODA (bench/anchors/side_scipy.py) as a subprocess of the same run, then prints
# every table with its ratios and the equal-accuracy tables.
#
# usage: bench/run-stiff.sh [--no-scipy] [harness arguments]
#   With no arguments: Robertson, Van der Pol, HIRES and heat at tolerances 1e-4 to 1e-10 in
#   5 interleaved rounds, then the Brusselator 2-D (8,192 states, seconds a run) at 1e-4 and
#   1e-6 in 1 round. Any other argument runs the harness once with it instead
#   (`cargo run -p bench --bin side_by_side -- --help`), e.g. `--problems hires --rounds 3`.
#
# SciPy and NumPy live in a venv under target/ (target/bench-venv), made on first use; the
# default test run never touches it.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$root/target/bench-venv"
args=(--stiff-only)
scipy=1
for a in "$@"; do
    [ "$a" = "--no-scipy" ] && scipy=0
done
if [ "$scipy" = 1 ]; then
    if [ ! -x "$venv/bin/python" ]; then
        mkdir -p "$root/target"
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check numpy scipy
    args+=(--python "$venv/bin/python")
fi
cd "$root"
run() { nice -n 10 cargo run --quiet --release -p bench --bin side_by_side -- "${args[@]}" "$@"; }
only_no_scipy=1
for a in "$@"; do
    [ "$a" != "--no-scipy" ] && only_no_scipy=0
done
if [ "$only_no_scipy" = 0 ]; then
    run "$@"
else
    run "$@" --problems robertson,van_der_pol,hires,heat --tolerances 1e-4,1e-6,1e-8,1e-10 --rounds 5
    run "$@" --problems brusselator --tolerances 1e-4,1e-6 --rounds 1
fi
