#!/usr/bin/env python3
"""Times the ensemble anchors (ANCHORS.md A6 GBM, A7 Lorenz) with vectorised NumPy.

Prints one JSON object per problem, like ode_anchors.py.
"""
import json
import statistics
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


def main():
    repeat = 1 if "--quick" in sys.argv else 3
    s, r = median_time(gbm, repeat)
    print(json.dumps({"problem": "A6 gbm 10k paths", "solver": "numpy euler-maruyama", "median_s": s, "result": r}))
    s, r = median_time(lorenz, repeat)
    print(json.dumps({"problem": "A7 lorenz 8192", "solver": "numpy rk4", "median_s": s, "result": r}))


if __name__ == "__main__":
    main()
