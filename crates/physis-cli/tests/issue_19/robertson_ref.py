"""Reference values for item6_robertson_*.hph (issue 19 item 6): Robertson's kinetics
integrated by SciPy's Radau at rtol 1e-12, atol 1e-20 with the exact Jacobian, written to
robertson_ref.json. Run: python3 robertson_ref.py (SciPy 1.17.1, NumPy 2.x)."""
import json

import numpy
import scipy
from scipy.integrate import solve_ivp


def f(t, y):
    a, b, c = y
    return [-0.04 * a + 1e4 * b * c, 0.04 * a - 1e4 * b * c - 3e7 * b * b, 3e7 * b * b]


def jac(t, y):
    a, b, c = y
    return [[-0.04, 1e4 * c, 1e4 * b], [0.04, -1e4 * c - 6e7 * b, -1e4 * b], [0, 6e7 * b, 0]]


out = {
    "provenance": f"robertson_ref.py: SciPy {scipy.__version__} Radau, rtol 1e-12, atol 1e-20, "
    f"exact Jacobian; NumPy {numpy.__version__}",
    "at": {},
}
for t_end in (1e3, 1e11):
    s = solve_ivp(f, (0, t_end), [1, 0, 0], method="Radau", rtol=1e-12, atol=1e-20, jac=jac)
    assert s.success
    out["at"][f"{t_end:g}"] = [float(v) for v in s.y[:, -1]]
with open("robertson_ref.json", "w") as fh:
    json.dump(out, fh, indent=1)
    fh.write("\n")
