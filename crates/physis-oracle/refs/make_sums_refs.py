#!/usr/bin/env python3
"""Reference values for the Pleiades model written with indexed sums (examples/pleiades.hph),
computed once, independently of Physis.

Pleiades (Hairer, Nørsett & Wanner, §II.10; masses 1..7, G = 1) is integrated from 0 to 3 by
SciPy's DOP853 at rtol 1e-13, atol 1e-15 and by Radau at rtol 1e-12, atol 1e-14; the final
positions of all seven stars are recorded from both, with their largest difference.

Run: python3 crates/physis-oracle/refs/make_sums_refs.py > crates/physis-oracle/refs/sums.json
"""
import json
import sys

import numpy as np
import scipy
from scipy.integrate import solve_ivp

M = np.arange(1, 8, dtype=float)


def pleiades(t, z):
    x, y, vx, vy = z[0:7], z[7:14], z[14:21], z[21:28]
    dx = x[None, :] - x[:, None]
    dy = y[None, :] - y[:, None]
    r3 = (dx * dx + dy * dy) ** 1.5
    np.fill_diagonal(r3, np.inf)
    ax = (M[None, :] * dx / r3).sum(axis=1)
    ay = (M[None, :] * dy / r3).sum(axis=1)
    return np.concatenate([vx, vy, ax, ay])


def main():
    z0 = np.array(
        [3, 3, -1, -3, 2, -2, 2]
        + [3, -3, 2, 0, 0, -4, 4]
        + [0, 0, 0, 0, 0, 1.75, -1.5]
        + [0, 0, 0, -1.25, 1, 0, 0],
        dtype=float,
    )
    dop = solve_ivp(pleiades, (0.0, 3.0), z0, method="DOP853", rtol=1e-13, atol=1e-15)
    rad = solve_ivp(pleiades, (0.0, 3.0), z0, method="Radau", rtol=1e-12, atol=1e-14)
    assert dop.success and rad.success
    a, b = dop.y[:14, -1], rad.y[:14, -1]
    out = {
        "provenance": (
            f"crates/physis-oracle/refs/make_sums_refs.py with SciPy {scipy.__version__}, "
            f"NumPy {np.__version__}, Python {sys.version.split()[0]}"
        ),
        "pleiades": {
            "t_end": 3.0,
            "x": list(a[:7]),
            "y": list(a[7:14]),
            "radau_x": list(b[:7]),
            "radau_y": list(b[7:14]),
            "dop853_radau_difference": float(np.max(np.abs(a - b))),
        },
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
