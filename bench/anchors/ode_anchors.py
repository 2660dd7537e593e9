#!/usr/bin/env python3
"""Times the ODE anchor problems (ANCHORS.md A1, A3, A4) with SciPy's solve_ivp.

Prints one JSON object per problem: {"problem", "solver", "median_s", "result"} so that
bench/run-ode-anchors.sh can put our figures beside them in the same run and report ratios.
"""
import json
import math
import statistics
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp


def median_time(fn, repeat):
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def lotka_volterra(method):
    a, b, c, d = 2 / 3, 4 / 3, 1.0, 1.0

    def f(t, u):
        x, y = u
        return [a * x - b * x * y, -c * y + d * x * y]

    sol = solve_ivp(f, (0.0, 10.0), [1.0, 1.0], method=method, rtol=1e-8, atol=1e-8, t_eval=[10.0])
    return [float(sol.y[0, -1]), float(sol.y[1, -1])]


def bouncing_ball():
    g, e = 9.81, 0.8

    def f(t, u):
        return [u[1], -g]

    def ground(t, u):
        return u[0]

    ground.terminal = True
    ground.direction = -1
    t, state, bounces = 0.0, [10.0, 0.0], []
    while t < 10.0 and len(bounces) < 7:
        sol = solve_ivp(f, (t, 10.0), state, events=ground, rtol=1e-12, atol=1e-12)
        if sol.t_events[0].size == 0:
            break
        t = float(sol.t_events[0][0])
        bounces.append(t)
        state = [0.0, -e * float(sol.y_events[0][0][1])]
    return bounces


def heat_1d(method):
    n = 100
    h = 1.0 / (n + 1)
    x = np.arange(1, n + 1) * h

    def f(t, u):
        du = np.empty_like(u)
        du[1:-1] = u[:-2] - 2 * u[1:-1] + u[2:]
        du[0] = -2 * u[0] + u[1]
        du[-1] = u[-2] - 2 * u[-1]
        return du / (h * h)

    from scipy.sparse import diags

    jac = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(n, n)) / (h * h)
    kwargs = {"jac": jac} if method in ("BDF", "Radau") else {}
    sol = solve_ivp(f, (0.0, 0.1), np.sin(np.pi * x), method=method, rtol=1e-6, atol=1e-9, t_eval=[0.1], **kwargs)
    lam = -(4 / (h * h)) * math.sin(math.pi * h / 2) ** 2
    exact = np.sin(np.pi * x) * math.exp(lam * 0.1)
    return float(np.max(np.abs(sol.y[:, -1] - exact)))


def main():
    quick = "--quick" in sys.argv
    repeat = 3 if quick else 7
    rows = []
    for method in ("RK45", "LSODA"):
        s, r = median_time(lambda: lotka_volterra(method), repeat)
        rows.append({"problem": "A1 lotka-volterra", "solver": f"scipy {method}", "median_s": s, "result": r})
    s, r = median_time(bouncing_ball, repeat)
    rows.append({"problem": "A3 bouncing ball", "solver": "scipy RK45 restart", "median_s": s, "result": r})
    for method in ("BDF", "RK45"):
        s, r = median_time(lambda: heat_1d(method), 3 if method == "RK45" else repeat)
        rows.append({"problem": "A4 heat 1d", "solver": f"scipy {method}", "median_s": s, "result": {"max_error": r}})
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
