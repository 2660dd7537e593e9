#!/usr/bin/env python3
"""Python anchors for the exact problems E1 (and optionally E2).

Runs symplectic Euler in exact rationals with `fractions.Fraction`, `gmpy2.mpq` (GMP) and, when
installed, `flint.fmpq` (python-flint), in the same order of operations as the Rust candidates
(bench/src/problems.rs), per component i:
    E1: f = k*x + b*v; a = f*(-1/m); v += a*dt; x += v*dt     (k=3, m=7, b=1/5, dt=1/100)
    E2: v += g*dt; x += v*dt                                   (g=(0,0,-981/100), dt=1/10)
from x0 = (1, 1/2, -1/3), v0 = (0, 1, 1/4). Only the stepping loop is timed.
"""

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

# On-CPU time of this thread by default, like the Rust timer: robust on a shared machine.
clock = time.thread_time

X0 = [(1, 1), (1, 2), (-1, 3)]
V0 = [(0, 1), (1, 1), (1, 4)]


def backends():
    """(name, constructor p,q -> rational, numerator, denominator) for every installed library."""
    found = [("fractions", Fraction, lambda r: r.numerator, lambda r: r.denominator)]
    try:
        import gmpy2

        found.append(("gmpy2", gmpy2.mpq, lambda r: r.numerator, lambda r: r.denominator))
    except ImportError:
        print("note: gmpy2 not installed, skipped", file=sys.stderr)
    try:
        import flint

        found.append(("flint", flint.fmpq, lambda r: r.p, lambda r: r.q))
    except ImportError:
        print("note: python-flint not installed, skipped", file=sys.stderr)
    return found


def run_e1(make, steps):
    k, b, neg_inv_m, dt = make(3, 1), make(1, 5), make(-1, 7), make(1, 100)
    x = [make(p, q) for p, q in X0]
    v = [make(p, q) for p, q in V0]
    start = clock()
    for _ in range(steps):
        for i in range(3):
            f = k * x[i] + b * v[i]
            a = f * neg_inv_m
            v[i] += a * dt
            x[i] += v[i] * dt
    return clock() - start, x + v


def run_e2(make, steps):
    g = [make(0, 1), make(0, 1), make(-981, 100)]
    dt = make(1, 10)
    x = [make(p, q) for p, q in X0]
    v = [make(p, q) for p, q in V0]
    start = clock()
    for _ in range(steps):
        for i in range(3):
            v[i] += g[i] * dt
            x[i] += v[i] * dt
    return clock() - start, x + v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="E1 at 1,000 steps only")
    ap.add_argument("--steps", default="1000,3000", help="E1 step counts, comma separated")
    ap.add_argument("--e2-steps", default="", help="E2 step counts (default none: slow in Python)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement (median)")
    ap.add_argument("--only", default="", help="comma separated backends (fractions,gmpy2,flint)")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="cpu (thread time) or wall")
    ap.add_argument("--tsv", action="store_true", help="also print RESULT lines for scripts")
    ap.add_argument("--state-dir", type=Path, help="write final states as DIR/<prob>-<steps>-<lib>.txt")
    args = ap.parse_args()
    global clock
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # final states have tens of thousands of digits

    e1_steps = [1000] if args.quick else [int(s) for s in args.steps.split(",") if s.strip()]
    e2_steps = [int(s) for s in args.e2_steps.split(",") if s.strip()]
    libs = backends()
    if args.only:
        wanted = set(args.only.split(","))
        libs = [lib for lib in libs if lib[0] in wanted]
    plan = [("e1", n, run_e1) for n in e1_steps if n > 0] + [("e2", n, run_e2) for n in e2_steps if n > 0]

    rows = []
    ok = True
    for prob, steps, runner in plan:
        states = {}
        for name, make, num, den in libs:
            times = []
            for _ in range(max(1, args.repeat)):
                secs, state = runner(make, steps)
                times.append(secs)
            med = statistics.median(times)
            print(f"{name} {prob} {steps}: {med:.3f} s (runs {[round(t, 3) for t in times]})", file=sys.stderr)
            text = "\n".join(f"{int(num(r))}/{int(den(r))}" for r in state) + "\n"
            states[name] = text
            nbits = max(int(num(r)).bit_length() for r in state)
            dbits = max(int(den(r)).bit_length() for r in state)
            rows.append((prob, steps, name, med, nbits, dbits))
            if args.state_dir:
                (args.state_dir / f"{prob}-{steps}-{name}.txt").write_text(text)
        if len(set(states.values())) > 1:
            print(f"MISMATCH: {prob} {steps}: final states differ between {sorted(states)}", file=sys.stderr)
            ok = False

    print(f"clock: {args.clock} time, median of {max(1, args.repeat)}")
    print(f"{'prob':<4} {'steps':>8} {'library':<10} {'median s':>10} {'/fractions':>11} {'num bits':>9} {'den bits':>9}")
    for prob, steps, name, med, nbits, dbits in rows:
        base = next((r[3] for r in rows if r[:3] == (prob, steps, "fractions")), None)
        ratio = f"{med / base:.3f}" if base else "-"
        print(f"{prob:<4} {steps:>8} {name:<10} {med:>10.3f} {ratio:>11} {nbits:>9} {dbits:>9}")
    if args.tsv:
        for prob, steps, name, med, nbits, dbits in rows:
            print(f"RESULT\t{prob}\t{steps}\t{name}\t{med:.6f}\t{nbits}\t{dbits}")
    print("final states: identical across libraries" if ok else "final states: MISMATCH (see stderr)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
