#!/usr/bin/env python3
"""Joins the RESULT lines of the Rust timer and the Python anchors into one ratio table.

usage: report.py RUST.tsv PYTHON.tsv
Each line: RESULT <problem> <steps> <library> <seconds> <numerator bits> <denominator bits>.
Ratios are ours / anchor: below 1 means the Rust candidate is faster.
"""

import sys


def load(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 7 and parts[0] == "RESULT":
            _, prob, steps, lib, secs, _, _ = parts
            rows[(prob, int(steps), lib)] = float(secs)
    return rows


def main():
    ours, anchors = load(sys.argv[1]), load(sys.argv[2])
    cases = sorted({(p, n) for p, n, _ in ours} | {(p, n) for p, n, _ in anchors})
    anchor_names = [a for a in ("fractions", "gmpy2", "flint") if any(k[2] == a for k in anchors)]
    head = f"{'prob':<4} {'steps':>8} {'library':<14} {'seconds':>9}"
    head += "".join(f" {'/' + a:>11}" for a in anchor_names)
    print(head)
    for prob, steps in cases:
        for lib in sorted({k[2] for k in anchors if k[:2] == (prob, steps)}, key=anchor_names.index):
            print(f"{prob:<4} {steps:>8} {lib + ' (py)':<14} {anchors[(prob, steps, lib)]:>9.3f}")
        for lib in [k[2] for k in ours if k[:2] == (prob, steps)]:
            secs = ours[(prob, steps, lib)]
            line = f"{prob:<4} {steps:>8} {lib:<14} {secs:>9.3f}"
            for a in anchor_names:
                base = anchors.get((prob, steps, a))
                line += f" {secs / base:>11.3f}" if base else f" {'-':>11}"
            print(line)


if __name__ == "__main__":
    main()
