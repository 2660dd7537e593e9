"""Independent reference for the HIRES test (tests/stiff.rs, tests/bdf.rs, tests/rosenbrock.rs):
SciPy's Radau IIA (order 5) at rtol 1e-12, atol 1e-14, with the analytic Jacobian.

HIRES (Hairer & Wanner, Solving ODEs II, IV.10; Schäfer 1975): eight species of a plant's
response to light, y(0) = (1, 0, 0, 0, 0, 0, 0, 0.0057), values at t = 321.8122 s. The test
model is `tests/stiff_models/hires.hph`, its rate constants in Hz.

Run: python3 hires_refs.py > hires.txt (the committed output; the tests read the `hires`
line through `tests/references/mod.rs`). SciPy's version is printed first. The values agree
with the reference of the Bari test set (Mazzia & Magherini) to about 1e-10 relative."""
import numpy as np
import scipy
from scipy.integrate import solve_ivp

print("scipy", scipy.__version__)


def hires(t, y):
    y1, y2, y3, y4, y5, y6, y7, y8 = y
    r = 280.0 * y6 * y8
    return [
        -1.71 * y1 + 0.43 * y2 + 8.32 * y3 + 0.0007,
        1.71 * y1 - 8.75 * y2,
        -10.03 * y3 + 0.43 * y4 + 0.035 * y5,
        8.32 * y2 + 1.71 * y3 - 1.12 * y4,
        -1.745 * y5 + 0.43 * y6 + 0.43 * y7,
        -r + 0.69 * y4 + 1.71 * y5 - 0.43 * y6 + 0.69 * y7,
        r - 1.81 * y7,
        -r + 1.81 * y7,
    ]


def jac(t, y):
    J = np.zeros((8, 8))
    J[0, 0], J[0, 1], J[0, 2] = -1.71, 0.43, 8.32
    J[1, 0], J[1, 1] = 1.71, -8.75
    J[2, 2], J[2, 3], J[2, 4] = -10.03, 0.43, 0.035
    J[3, 1], J[3, 2], J[3, 3] = 8.32, 1.71, -1.12
    J[4, 4], J[4, 5], J[4, 6] = -1.745, 0.43, 0.43
    J[5, 3], J[5, 4], J[5, 5], J[5, 6], J[5, 7] = 0.69, 1.71, -0.43 - 280 * y[7], 0.69, -280 * y[5]
    J[6, 5], J[6, 6], J[6, 7] = 280 * y[7], -1.81, 280 * y[5]
    J[7, 5], J[7, 6], J[7, 7] = -280 * y[7], 1.81, -280 * y[5]
    return J


T = 321.8122
y0 = [1.0, 0, 0, 0, 0, 0, 0, 0.0057]
sol = solve_ivp(hires, (0.0, T), y0, method="Radau", t_eval=[T], rtol=1e-12, atol=1e-14, jac=jac)
assert sol.success, sol.message
print("hires %.17g " % T + " ".join("%.17g" % v for v in sol.y[:, -1]))
