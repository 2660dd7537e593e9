#!/usr/bin/env bash
# Runs the exact-arithmetic anchors in one invocation: the Rust candidate timer (release) and the
# Python anchors (fractions, gmpy2, optionally python-flint), checks that every implementation
# reaches the byte-identical final state, and prints ours/anchor ratios.
#
# usage: bench/run-anchors.sh [--quick] [--repeat N] [--features lgpl] [--e2-steps N]
#   --quick        E1 at 1,000 steps only and E2 at 10^5 steps
#   --repeat N     runs per measurement, medians reported (default 1)
#   --features F   cargo features of the bench crate (e.g. lgpl = malachite + rug; rug needs m4)
#   --e2-steps N   E2 step count for both sides (default 10^6; 0 skips E2)
#   --clock C      cpu (default: on-CPU time of the timing thread, robust on a shared machine) or wall
#   --only LIST    Rust candidates to run, comma separated (default all compiled in)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
e1_steps="1000,3000"
e2_steps="1000000"
repeat=1
features=""
only=()
clock="cpu"
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) e1_steps="1000"; e2_steps="100000" ;;
        --repeat) repeat="$2"; shift ;;
        --features) features="$2"; shift ;;
        --e2-steps) e2_steps="$2"; shift ;;
        --clock) clock="$2"; shift ;;
        --only) only=(--only "$2"); shift ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done

venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/anchors/requirements.txt"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/anchors/requirements-optional.txt" \
    || echo "note: optional python-flint did not install; continuing without it" >&2

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/states"

cargo_args=(run --quiet --release --manifest-path "$here/Cargo.toml" --bin e1_candidates)
if [ -n "$features" ]; then
    cargo_args+=(--features "$features")
fi
echo "== Rust candidates (release) =="
cargo "${cargo_args[@]}" -- --steps "$e1_steps" --e2-steps "$e2_steps" --repeat "$repeat" \
    --clock "$clock" "${only[@]}" --tsv --state-dir "$out/states" | tee "$out/rust.tsv" | grep -v '^RESULT'

echo
echo "== Python anchors =="
"$venv/bin/python" "$here/anchors/exact_e1.py" --steps "$e1_steps" --e2-steps "$e2_steps" \
    --repeat "$repeat" --clock "$clock" --tsv --state-dir "$out/states" | tee "$out/python.tsv" | grep -v '^RESULT'

echo
echo "== Final states (all implementations, byte for byte) =="
status=0
for case in $(ls "$out/states" | sed -E 's/^(e[12]-[0-9]+)-.*/\1/' | sort -u); do
    distinct=$(sha256sum "$out/states/$case"-*.txt | awk '{print $1}' | sort -u | wc -l)
    libs=$(ls "$out/states/$case"-*.txt | sed -E "s|.*/$case-(.*)\.txt|\1|" | tr '\n' ' ')
    if [ "$distinct" = 1 ]; then
        echo "$case: identical ($libs)"
    else
        echo "$case: MISMATCH ($distinct distinct states among $libs)"
        status=1
    fi
done

echo
echo "== Ratios (ours / anchor; below 1 = ours faster) =="
"$venv/bin/python" "$here/anchors/report.py" "$out/rust.tsv" "$out/python.tsv"
exit "$status"
