#!/usr/bin/env bash
# A/B of two revisions on the side-by-side harness, in one session: each revision's tree is
# exported (`git archive`) to target/ab/src-SHA and built in release into its own
# target/ab/target-SHA (niced), then the two `side_by_side` binaries run alternately
# (A B A B ...). Printed: per revision, the median over runs of each contender's median time on
# A1 and A3, and the median of the per-run ratios of the interpreter (and generated code, the
# JIT) to diffsol and the hand DP5, both measured in the same process.
#
# Why this shape: figures taken from two builds on two days mix code with build and machine
# noise (issue 21's "A1 interpreter 27.9 → 33.9 µs"). Interleaving the two binaries in one
# session, and reading each binary's own ratio to diffsol, separates the two.
#
# usage: bash bench/ab.sh REV1 REV2 [--runs N] [--rounds N] [--keep-going]
#   --runs N     alternations of the two binaries (default 5)
#   --rounds N   interleaved rounds inside each binary run (default 7)
# The second build starts from a copy of the first one's target (third-party crates reused,
# every workspace crate cleaned first), so it compiles only our crates.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs=5
rounds=7
revs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift ;;
        --rounds) rounds="$2"; shift ;;
        -*) echo "unknown argument: $1" >&2; exit 2 ;;
        *) revs+=("$1") ;;
    esac
    shift
done
if [ "${#revs[@]}" != 2 ]; then
    echo "usage: bash bench/ab.sh REV1 REV2 [--runs N] [--rounds N]" >&2
    exit 2
fi
cd "$root"
ab="$root/target/ab"
mkdir -p "$ab/out"

shas=()
for rev in "${revs[@]}"; do
    shas+=("$(git rev-parse --short=9 "$rev^{commit}")")
done

# Build one revision; seeds its target from an already built one when there is one.
build() {
    local sha="$1" src="$ab/src-$1" tgt="$ab/target-$1"
    if [ ! -d "$src" ]; then
        mkdir -p "$src.tmp"
        git archive "$sha" | tar -x -C "$src.tmp"
        mv "$src.tmp" "$src"
    fi
    if [ ! -d "$tgt" ]; then
        local seed
        seed="$(find "$ab" -maxdepth 1 -name 'target-*' ! -name '*.tmp' -type d | head -1)"
        if [ -n "$seed" ] && [ -d "$seed/release" ]; then
            echo "ab: seeding $tgt from $seed" >&2
            cp -a "$seed" "$tgt.tmp"
            # Workspace crates share artifact names across trees: drop them all so nothing of
            # the other revision is reused.
            local members
            members="$(cd "$src" && cargo metadata --no-deps --format-version 1 --locked \
                | python3 -c 'import json,sys; print(" ".join("-p " + p["name"] for p in json.load(sys.stdin)["packages"]))')"
            # shellcheck disable=SC2086
            (cd "$src" && CARGO_TARGET_DIR="$tgt.tmp" cargo clean --release $members -q)
            mv "$tgt.tmp" "$tgt"
        fi
    fi
    echo "ab: building $sha" >&2
    (cd "$src" && CARGO_TARGET_DIR="$tgt" nice -n 10 cargo build --release --locked -q \
        -p bench --bin side_by_side)
}

for sha in "${shas[@]}"; do
    build "$sha"
done

# The stiff tables are not what is compared: keep them as small as each revision allows
# (older harnesses have no --problems).
args_for() {
    local bin="$1"
    local a=(--no-scipy --rounds "$rounds" --tolerances 1e-4)
    if "$bin" --help | grep -q -- '--problems'; then
        a+=(--problems heat)
    fi
    echo "${a[@]}"
}

stamp="$(date -u +%Y%m%dT%H%M%S)"
for i in $(seq "$runs"); do
    for sha in "${shas[@]}"; do
        bin="$ab/target-$sha/release/side_by_side"
        out="$ab/out/$stamp-$sha-$i.md"
        # shellcheck disable=SC2046
        (cd "$ab/src-$sha" && "$bin" $(args_for "$bin") > "$out")
        echo "ab: run $i/$runs $sha done" >&2
    done
done

# Summary: medians over runs of each row's time, and of the per-run ratios.
python3 - "$ab/out" "$stamp" "${shas[@]}" << 'EOF'
import re, statistics, sys, pathlib
out, stamp, shas = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
# Per anchor: our rows (ratios taken), then the peers they are divided by.
rows = {
    "A1": (["ours, interpreter (rk45)", "ours, interpreter, plain tape", "ours, generated (rk45)",
            "ours, JIT (rk45)"], ["diffsol tsit45", "hand DP5, stack arrays"]),
    "A3": (["ours, interpreter (rk45)", "ours, interpreter, plain tape", "ours, generated (rk45)",
            "ours, JIT (rk45)"], ["diffsol tsit45 (gated root, reset)"]),
}
def us(cell):
    v, unit = cell.split()
    return float(v) * {"µs": 1.0, "ms": 1e3, "s": 1e6}[unit]
def tables(text):
    found, cur = {}, None
    for line in text.splitlines():
        if line.startswith("### "):
            cur = line[4:6]
            found.setdefault(cur, {})
        elif cur and line.startswith("| ") and not line.startswith("| contender"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            try:
                found[cur][cells[0]] = us(cells[1])
            except (ValueError, KeyError, IndexError):
                pass
    return found
med = statistics.median
print(f"## A/B {' vs '.join(shas)}, {stamp}: medians over runs (µs); ratios per run, then median")
for anchor, (ours, peers) in rows.items():
    names = ours + peers
    print(f"\n### {anchor}\n\n| row | " + " | ".join(shas) + " |\n|---|" + "---|" * len(shas))
    per = {sha: [tables(p.read_text()).get(anchor, {})
                 for p in sorted(out.glob(f"{stamp}-{sha}-*.md"))] for sha in shas}
    for name in names:
        cells = []
        for sha in shas:
            t = [r[name] for r in per[sha] if name in r]
            cells.append(f"{med(t):.2f} µs (n={len(t)})" if t else "—")
        print(f"| {name} | " + " | ".join(cells) + " |")
    for name in ours:
        for p in peers:
            cells = []
            for sha in shas:
                r = [x[name] / x[p] for x in per[sha] if name in x and p in x]
                cells.append(f"{med(r):.3f}× [{min(r):.3f}–{max(r):.3f}]" if r else "—")
            if any(c != "—" for c in cells):
                print(f"| {name} / {p} | " + " | ".join(cells) + " |")
    a, b = shas
    for name in names:
        ta = [r[name] for r in per[a] if name in r]
        tb = [r[name] for r in per[b] if name in r]
        if ta and tb:
            print(f"| time {b} / {a}: {name} | {med(tb) / med(ta):.3f}× | |")
EOF
