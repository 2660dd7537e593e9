"""Independent references for the stiff CLI tests (tests/stiff_references.rs): SciPy's Radau
IIA (order 5) at rtol 1e-12, atol 1e-20, with the analytic Jacobian.

Robertson (Hairer & Wanner, Solving ODEs II, IV.1): k1 = 0.04 /s, k2 = 3e7, k3 = 1e4 (per unit
concentration per second), y = (1, 0, 0), values at t = 1e0 ... 1e11 s.
Van der Pol mu = 1000: x'' = mu (1 - x^2) x' - x from x = 2 at rest, values at t = 3000 s.

Run: python3 refs.py > refs.txt (the committed output; the test parses its `robertson` and
`vdp` lines). SciPy's version is printed first."""
import numpy as np
import scipy
from scipy.integrate import solve_ivp

print("scipy", scipy.__version__)

k1, k2, k3 = 0.04, 3e7, 1e4


def rob(t, y):
    a, b, c = y
    return [-k1 * a + k3 * b * c, k1 * a - k3 * b * c - k2 * b * b, k2 * b * b]


def rob_jac(t, y):
    a, b, c = y
    return [[-k1, k3 * c, k3 * b],
            [k1, -k3 * c - 2 * k2 * b, -k3 * b],
            [0.0, 2 * k2 * b, 0.0]]


times = [10.0 ** k for k in range(0, 12)]
sol = solve_ivp(rob, (0.0, 1e11), [1.0, 0.0, 0.0], method="Radau", t_eval=times,
                rtol=1e-12, atol=1e-20, jac=rob_jac)
assert sol.success, sol.message
for i, t in enumerate(sol.t):
    print("robertson %.17g %.17g %.17g %.17g" % (t, sol.y[0, i], sol.y[1, i], sol.y[2, i]))

mu = 1000.0


def vdp(t, y):
    x, v = y
    return [v, mu * (1 - x * x) * v - x]


def vdp_jac(t, y):
    x, v = y
    return [[0.0, 1.0], [-2 * mu * x * v - 1, mu * (1 - x * x)]]


sol = solve_ivp(vdp, (0.0, 3000.0), [2.0, 0.0], method="Radau", t_eval=[3000.0],
                rtol=1e-12, atol=1e-14, jac=vdp_jac)
assert sol.success, sol.message
print("vdp %.17g %.17g %.17g" % (sol.t[-1], sol.y[0, -1], sol.y[1, -1]))
