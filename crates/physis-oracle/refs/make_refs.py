#!/usr/bin/env python3
"""Reference values of the classic corpus (crates/physis-oracle/corpus/*.hph), computed once.

Each problem is restated here in NumPy, independently of Physis, and integrated by SciPy's
DOP853 at rtol 1e-13, atol 1e-15 (the reference) and at rtol 1e-12, atol 1e-14 (their
difference is recorded as the reference's spread). SciPy's RK45 (Dormand-Prince 5(4), the
pair Physis' rk45 uses) is then run at rtol = atol = tol for each tolerance the corpus test
asks, and its largest error over the observed columns is recorded beside the reference.
Kepler's exact state after 100 periods is its initial state, recorded too.

Run: python3 crates/physis-oracle/refs/make_refs.py > crates/physis-oracle/refs/corpus.json
"""
import json
import math
import sys

import numpy as np
import scipy
from scipy.integrate import solve_ivp

TOLERANCES = [1e-6, 1e-9]


def arenstorf():
    mu = 0.012277471
    mp = 1 - mu

    def f(t, z):
        x, vx, y, vy = z
        d1 = ((x + mu) ** 2 + y ** 2) ** 1.5
        d2 = ((x - mp) ** 2 + y ** 2) ** 1.5
        ax = x + 2 * vy - mp * (x + mu) / d1 - mu * (x - mp) / d2
        ay = y - 2 * vx - mp * y / d1 - mu * y / d2
        return [vx, ax, vy, ay]

    z0 = [0.994, 0.0, 0.0, -2.00158510637908252240537862224]
    obs = lambda z: [z[0], z[2], z[1], z[3]]
    return "arenstorf.hph", f, z0, 17.0652165601579625588917206249, obs, ["px", "py", "vx", "vy"]


def van_der_pol():
    def f(t, z):
        return [z[1], (1 - z[0] ** 2) * z[1] - z[0]]

    return "van_der_pol.hph", f, [2.0, 0.0], 20.0, lambda z: [z[0], z[1]], ["position", "velocity"]


def kepler():
    e = 0.9

    def f(t, z):
        qx, qy, px, py = z
        r3 = (qx * qx + qy * qy) ** 1.5
        return [px, py, -qx / r3, -qy / r3]

    z0 = [1 - e, 0.0, 0.0, math.sqrt((1 + e) / (1 - e))]

    def obs(z):
        energy = 0.5 * (z[2] ** 2 + z[3] ** 2) - 1 / math.hypot(z[0], z[1])
        return [z[0], z[1], z[2], z[3], energy]

    return "kepler.hph", f, z0, 200 * math.pi, obs, ["qx", "qy", "px", "py", "energy"]


def pleiades():
    m = np.arange(1, 8, dtype=float)
    x0 = [3, 3, -1, -3, 2, -2, 2]
    y0 = [3, -3, 2, 0, 0, -4, 4]
    vx0 = [0, 0, 0, 0, 0, 1.75, -1.5]
    vy0 = [0, 0, 0, -1.25, 1, 0, 0]

    def f(t, z):
        x, y, vx, vy = z[0:7], z[7:14], z[14:21], z[21:28]
        dx = x[None, :] - x[:, None]
        dy = y[None, :] - y[:, None]
        r3 = (dx * dx + dy * dy) ** 1.5
        np.fill_diagonal(r3, np.inf)
        ax = (m[None, :] * dx / r3).sum(axis=1)
        ay = (m[None, :] * dy / r3).sum(axis=1)
        return np.concatenate([vx, vy, ax, ay])

    z0 = np.array(x0 + y0 + vx0 + vy0, dtype=float)
    obs = lambda z: [v for i in range(7) for v in (z[i], z[7 + i])]
    names = [n for i in range(7) for n in (f"x{i + 1}", f"y{i + 1}")]
    return "pleiades.hph", f, z0, 3.0, obs, names


def brusselator():
    n = 32
    dx = 1.0 / (n + 1)
    alpha = 0.02
    xs = np.arange(1, n + 1) * dx

    def f(t, z):
        u, v = z[:n], z[n:]
        ue = np.concatenate([[1.0], u, [1.0]])
        ve = np.concatenate([[3.0], v, [3.0]])
        lu = (ue[2:] - 2 * u + ue[:-2]) / dx ** 2
        lv = (ve[2:] - 2 * v + ve[:-2]) / dx ** 2
        return np.concatenate([1 + u * u * v - 4.4 * u + alpha * lu, 3.4 * u - u * u * v + alpha * lv])

    z0 = np.concatenate([1 + np.sin(2 * np.pi * xs), 3.0 * np.ones(n)])
    # Node k of the 34-node grid is interior index k − 1.
    obs = lambda z: [z[7], z[15], z[23], z[n + 7], z[n + 15], z[n + 23]]
    return "brusselator.hph", f, z0, 10.0, obs, ["u8", "u16", "u24", "v8", "v16", "v24"]


def final(f, z0, t_end, method, rtol, atol):
    sol = solve_ivp(f, (0.0, t_end), z0, method=method, rtol=rtol, atol=atol)
    assert sol.success, sol.message
    return sol.y[:, -1], sol.nfev


def main():
    problems = {}
    for make in [arenstorf, pleiades, van_der_pol, kepler, brusselator]:
        file, f, z0, t_end, obs, names = make()
        ref, _ = final(f, z0, t_end, "DOP853", 1e-13, 1e-15)
        check, _ = final(f, z0, t_end, "DOP853", 1e-12, 1e-14)
        ref_obs = obs(ref)
        spread = max(abs(a - b) for a, b in zip(ref_obs, obs(check)))
        scipy_rk45 = {}
        for tol in TOLERANCES:
            y, nfev = final(f, z0, t_end, "RK45", tol, tol)
            err = max(abs(a - b) for a, b in zip(obs(y), ref_obs))
            scipy_rk45[f"1e-{round(-math.log10(tol))}"] = {"error": err, "nfev": nfev}
        entry = {
            "file": file,
            "t_end": t_end,
            "observes": names,
            "reference": ref_obs,
            "reference_spread": spread,
            "scipy_rk45": scipy_rk45,
        }
        if make is kepler:
            entry["exact"] = obs(np.array(z0))
        problems[file.removesuffix(".hph")] = entry
    out = {
        "provenance": (
            f"crates/physis-oracle/refs/make_refs.py with SciPy {scipy.__version__}, "
            f"NumPy {np.__version__}, Python {sys.version.split()[0]}: reference by DOP853 at "
            "rtol 1e-13, atol 1e-15 (spread: its difference from rtol 1e-12, atol 1e-14); "
            "scipy_rk45: SciPy RK45 at rtol = atol = tol, largest error over the observes"
        ),
        "problems": problems,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
