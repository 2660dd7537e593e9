#!/usr/bin/env python3
"""SciPy's side of the side-by-side harness (bench/src/side): the stiff anchors of ANCHORS.md
(A2 Robertson to 1e11 s, A10 Van der Pol mu = 1000 to 3000 s, A11 HIRES, A4 heat 1-D, A12
Brusselator 2-D on a 64x64 periodic grid) with solve_ivp's Radau, BDF and LSODA, and the
references the harness measures every error against.

  side_scipy.py --tolerances 1e-4,1e-6,1e-8 [--repeat N]
      one JSON object per line: {"problem", "solver", "tol", "median_s", "steps", "nfev",
      "njev", "nlu", "y"}; the Rust binary runs this as a subprocess and computes the errors.
  side_scipy.py --reference > bench/anchors/side/reference.json
      Radau at rtol 1e-13 (atol 1e-20 for Robertson, whose y2 is ~1e-13) and DOP853 at
      rtol 1e-13 for A1, and A12 from BDF at rtol 1e-12, atol 1e-14 (sparse Jacobian; Radau
      takes minutes a solve there; BDF at rtol 1e-11 agrees to 9e-10): the committed
      references.
"""
import argparse
import json
import math
import statistics
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy import sparse
from scipy.sparse import diags


def robertson():
    k1, k2, k3 = 0.04, 3e7, 1e4

    def f(t, y):
        return [-k1 * y[0] + k3 * y[1] * y[2], k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] ** 2, k2 * y[1] ** 2]

    def jac(t, y):
        return [[-k1, k3 * y[2], k3 * y[1]],
                [k1, -k3 * y[2] - 2 * k2 * y[1], -k3 * y[1]],
                [0.0, 2 * k2 * y[1], 0.0]]

    return f, jac, (0.0, 1e11), [1.0, 0.0, 0.0]


def van_der_pol():
    mu = 1000.0

    def f(t, y):
        return [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]]

    def jac(t, y):
        return [[0.0, 1.0], [-2 * mu * y[0] * y[1] - 1.0, mu * (1 - y[0] ** 2)]]

    return f, jac, (0.0, 3000.0), [2.0, 0.0]


def hires():
    def f(t, y):
        return [
            -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
            1.71 * y[0] - 8.75 * y[1],
            -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
            8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
            -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6],
            -280 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
            280 * y[5] * y[7] - 1.81 * y[6],
            -280 * y[5] * y[7] + 1.81 * y[6],
        ]

    def jac(t, y):
        j = np.zeros((8, 8))
        j[0, :3] = [-1.71, 0.43, 8.32]
        j[1, :2] = [1.71, -8.75]
        j[2, 2:5] = [-10.03, 0.43, 0.035]
        j[3, 1:4] = [8.32, 1.71, -1.12]
        j[4, 4:7] = [-1.745, 0.43, 0.43]
        j[5, 3:8] = [0.69, 1.71, -0.43 - 280 * y[7], 0.69, -280 * y[5]]
        j[6, 5:8] = [280 * y[7], -1.81, 280 * y[5]]
        j[7, 5:8] = [-280 * y[7], 1.81, -280 * y[5]]
        return j

    return f, jac, (0.0, 321.8122), [1.0, 0, 0, 0, 0, 0, 0, 0.0057]


def heat():
    n = 100
    h = 1.0 / (n + 1)
    x = np.arange(1, n + 1) * h

    def f(t, u):
        du = np.empty_like(u)
        du[1:-1] = u[:-2] - 2 * u[1:-1] + u[2:]
        du[0] = -2 * u[0] + u[1]
        du[-1] = u[-2] - 2 * u[-1]
        return du / (h * h)

    jac = diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(n, n), format="csc") / (h * h)
    return f, jac, (0.0, 0.1), np.sin(np.pi * x)


# A12: u' = A + u^2 v - (B + 1) u + alpha lap(u), v' = B u - u^2 v + alpha lap(v) on the unit
# square, periodic, 64 x 64 nodes x_i = i/64 (the layout of `grid (x, y) : Length[64, 64]`:
# node i*64 + j is (x_i, y_j)); u0 = 22 y (1 - y)^1.5, v0 = 27 x (1 - x)^1.5; to t = 11.5.
BRUSS_N = 64
BRUSS_A, BRUSS_B, BRUSS_ALPHA = 1.0, 3.4, 0.002
BRUSS_T_END = 11.5


def brusselator():
    n = BRUSS_N
    a, b, alpha = BRUSS_A, BRUSS_B, BRUSS_ALPHA
    d = 1.0 / n
    c = alpha / (d * d)
    x = np.arange(n) * d
    X, Y = np.meshgrid(x, x, indexing="ij")
    u0 = 22.0 * Y * (1.0 - Y) ** 1.5
    v0 = 27.0 * X * (1.0 - X) ** 1.5
    m = n * n

    def lap(w):
        return (np.roll(w, 1, 0) + np.roll(w, -1, 0) + np.roll(w, 1, 1) + np.roll(w, -1, 1) - 4.0 * w) * c

    def f(t, y):
        u = y[:m].reshape(n, n)
        v = y[m:].reshape(n, n)
        uuv = u * u * v
        du = a + uuv - (b + 1.0) * u + lap(u)
        dv = b * u - uuv + lap(v)
        return np.concatenate([du.ravel(), dv.ravel()])

    one = sparse.identity(n, format="csr")
    ring = sparse.diags([1.0, 1.0, 1.0, 1.0, -2.0], [-(n - 1), -1, 1, n - 1, 0], shape=(n, n), format="csr")
    lap_m = (sparse.kron(ring, one) + sparse.kron(one, ring)) * c

    def jac(t, y):
        u = y[:m]
        v = y[m:]
        juu = sparse.diags(2.0 * u * v - (b + 1.0)) + lap_m
        juv = sparse.diags(u * u)
        jvu = sparse.diags(b - 2.0 * u * v)
        jvv = sparse.diags(-u * u) + lap_m
        return sparse.bmat([[juu, juv], [jvu, jvv]], format="csc")

    return f, jac, (0.0, BRUSS_T_END), np.concatenate([u0.ravel(), v0.ravel()])


BRUSS_RADAU = False

PROBLEMS = {"robertson": robertson, "van_der_pol": van_der_pol, "hires": hires, "heat": heat,
            "brusselator": brusselator}


def lotka_volterra_reference():
    a, b, c, d = 2 / 3, 4 / 3, 1.0, 1.0
    sol = solve_ivp(lambda t, u: [a * u[0] - b * u[0] * u[1], -c * u[1] + d * u[0] * u[1]],
                    (0.0, 10.0), [1.0, 1.0], method="DOP853", rtol=1e-13, atol=1e-15)
    return [float(v) for v in sol.y[:, -1]]


def reference():
    out = {"a1": lotka_volterra_reference()}
    for name in ("robertson", "van_der_pol", "hires"):
        f, jac, span, y0 = PROBLEMS[name]()
        atol = 1e-20 if name == "robertson" else 1e-14
        sol = solve_ivp(f, span, y0, method="Radau", jac=jac, rtol=1e-13, atol=atol)
        if not sol.success:
            raise SystemExit(f"{name}: reference failed: {sol.message}")
        out[name] = [float(v) for v in sol.y[:, -1]]
    # Radau on 8,192 states takes minutes per solve (complex sparse LU); BDF at rtol 1e-12
    # agrees with its own rtol 1e-11 to 9e-10.
    f, jac, span, y0 = brusselator()
    sol = solve_ivp(f, span, y0, method="BDF", jac=jac, rtol=1e-12, atol=1e-14)
    if not sol.success:
        raise SystemExit(f"brusselator: reference failed: {sol.message}")
    out["brusselator"] = [float(v) for v in sol.y[:, -1]]
    out["how"] = ("bench/anchors/side_scipy.py --reference: SciPy Radau rtol 1e-13 (atol 1e-20 for "
                  "Robertson, 1e-14 otherwise, analytic Jacobians); A1 DOP853 rtol 1e-13 atol 1e-15; "
                  "A12 BDF rtol 1e-12 atol 1e-14 (sparse analytic Jacobian)")
    print(json.dumps(out, indent=1))


def timed(name, method, tol, atol, repeat):
    f, jac, span, y0 = PROBLEMS[name]()
    kwargs = {"jac": jac} if method in ("Radau", "BDF") else {}
    if method == "LSODA" and name == "heat":
        kwargs = {"lband": 1, "uband": 1}
    if method == "LSODA" and name == "brusselator":
        # LSODA takes a dense or banded Jacobian only; the u-v coupling puts the band at
        # 4096, so it would factor dense 8192 x 8192 matrices by finite differences.
        raise RuntimeError("not run: LSODA has no sparse Jacobian (dense 8192 x 8192)")
    if method == "Radau" and name == "brusselator" and not BRUSS_RADAU:
        raise RuntimeError("not run (--bruss-radau runs it): 266 s per solve at 1e-6 in a trial")
    if name == "brusselator":
        repeat = 1
    times, sol = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        sol = solve_ivp(f, span, y0, method=method, rtol=tol, atol=atol, **kwargs)
        times.append(time.perf_counter() - t0)
    return {
        "problem": name,
        "solver": f"scipy {method}",
        "tol": tol,
        "median_s": statistics.median(times),
        "steps": len(sol.t) - 1,
        "nfev": int(sol.nfev),
        "njev": int(sol.njev),
        "nlu": int(sol.nlu),
        "success": bool(sol.success),
        "y": [float(v) for v in sol.y[:, -1]],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reference", action="store_true")
    p.add_argument("--tolerances", default="1e-4,1e-6,1e-8")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--problems", default=",".join(PROBLEMS))
    p.add_argument("--atol", default="", help="problem=value,... (atol = tol for the others)")
    p.add_argument("--bruss-radau", action="store_true", help="also Radau on the Brusselator (slow)")
    a = p.parse_args()
    if a.reference:
        reference()
        return
    global BRUSS_RADAU
    BRUSS_RADAU = a.bruss_radau
    atols = dict((k, float(v)) for k, v in (x.split("=") for x in a.atol.split(",") if x))
    for name in a.problems.split(","):
        for tol in (float(t) for t in a.tolerances.split(",")):
            for method in ("Radau", "BDF", "LSODA"):
                try:
                    row = timed(name, method, tol, atols.get(name, tol), a.repeat)
                except Exception as e:  # a failed peer run is a row, not the end of the table
                    row = {"problem": name, "solver": f"scipy {method}", "tol": tol, "error": str(e)}
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
