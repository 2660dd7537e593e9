#!/usr/bin/env python3
"""Times the ensemble anchors (ANCHORS.md A6 GBM, A7 Lorenz) with vectorised NumPy and,
given `--physis PATH` (a release `physis` binary), the same ensembles interpreted from
`bench/anchors/ensemble/*.hph` by `physis run --summary -q` on 1 and 2 threads, in the same run.

Prints one JSON object per problem and solver, like ode_anchors.py; the physis rows carry their
ratio to NumPy. (The hand-written Rust loops are timed by `cargo bench -p physis-ir --bench
ensembles`, beside the interpreter in lanes.)
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def gbm(paths=10_000, steps=1000, mu=1.0, sigma=0.5, seed=1):
    rng = np.random.default_rng(seed)
    dt = 1.0 / steps
    x = np.ones(paths)
    for _ in range(steps):
        x = x + mu * x * dt + sigma * x * rng.standard_normal(paths) * np.sqrt(dt)
    return {"mean": float(x.mean()), "var": float(x.var()), "expected_mean": float(np.e),
            "expected_var": float(np.e**2 * (np.exp(0.25) - 1))}


def lorenz(n=8192, dt=1e-3, t_end=1.0, sigma=10.0, beta=2.666):
    rho = np.linspace(0.0, 21.0, n)
    u = np.zeros((3, n))
    u[0] = 1.0

    def f(u):
        x, y, z = u
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])

    for _ in range(int(round(t_end / dt))):
        k1 = f(u)
        k2 = f(u + 0.5 * dt * k1)
        k3 = f(u + 0.5 * dt * k2)
        k4 = f(u + dt * k3)
        u = u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return {"x_last": float(u[0, -1]), "z_last": float(u[2, -1])}


def median_time(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


HERE = os.path.dirname(os.path.abspath(__file__))
PHYSIS_RUNS = {
    "A6 gbm 10k paths": ["ensemble/gbm.hph", "--ensemble", "10000"],
    "A7 lorenz 8192": ["ensemble/lorenz.hph", "--sweep", "ρ=0..21:8192"],
}


def physis_run(binary, problem, threads):
    model, *args = PHYSIS_RUNS[problem]
    cmd = [binary, "run", os.path.join(HERE, model), *args, "--summary", "-q",
           "--threads", str(threads)]

    def run():
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        return json.loads(out)["final"]["mean"]

    return run


def main():
    repeat = 1 if "--quick" in sys.argv else 3
    physis = None
    if "--physis" in sys.argv:
        physis = sys.argv[sys.argv.index("--physis") + 1]
    for problem, solver, fn in [
        ("A6 gbm 10k paths", "numpy euler-maruyama", gbm),
        ("A7 lorenz 8192", "numpy rk4", lorenz),
    ]:
        base, r = median_time(fn, repeat)
        print(json.dumps({"problem": problem, "solver": solver, "median_s": base, "result": r}))
        if physis is None:
            continue
        for threads in (1, 2):
            s, r = median_time(physis_run(physis, problem, threads), max(repeat, 5))
            print(json.dumps({"problem": problem, "solver": f"physis cli, {threads} thread(s)",
                              "median_s": s, "ratio_to_numpy": s / base, "final_mean": r}))


if __name__ == "__main__":
    main()
