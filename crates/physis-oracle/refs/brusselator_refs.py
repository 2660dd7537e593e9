"""Independent reference for the 2-D Brusselator under radau5 on a grid
(crates/physis-oracle/tests/grids.rs, model tests/grid_models/brusselator.hph): SciPy's
Radau IIA (order 5) at rtol 1e-12, atol 1e-14, with the Jacobian's sparsity given.

The semi-discrete system physis runs (ANCHORS.md A12 on a 20×20 grid): u and v on a periodic
20×20 grid over [0, 1)² (x_i = i/20, node (i, j) at i·20 + j, i along x), A = 1, B = 3.4,
α = 0.002, u' = A + u²v − (A + B)u + α·Δu, v' = Bu − u²v + α·Δv with the five-point
Laplacian of spacing 1/20, u₀ = 22·y(1 − y)^1.5, v₀ = 27·x(1 − x)^1.5, to t = 11.5.

Run: python3 brusselator_refs.py > brusselator.txt (the committed output; the test reads
the `brusselator` line: t, then u[10,10], v[10,10], u[3,17], v[17,3], mean(u)). SciPy's
version is printed first, then the largest difference over every state from SciPy's DOP853
at rtol 1e-13 (an explicit method: nothing shared with Radau but the rate)."""
import numpy as np
import scipy
from scipy.integrate import solve_ivp
from scipy.sparse import identity, kron, diags, bmat

print("scipy", scipy.__version__)

N = 20
A, B, ALPHA = 1.0, 3.4, 0.002
T = 11.5
d = 1.0 / N
x = np.arange(N) * d


def lap(w):
    w = w.reshape(N, N)
    out = (np.roll(w, 1, 0) - 2 * w + np.roll(w, -1, 0)) / d**2
    out += (np.roll(w, 1, 1) - 2 * w + np.roll(w, -1, 1)) / d**2
    return out.ravel()


def rate(t, s):
    u, v = s[: N * N], s[N * N :]
    uuv = u * u * v
    du = A + uuv - (A + B) * u + ALPHA * lap(u)
    dv = B * u - uuv + ALPHA * lap(v)
    return np.concatenate([du, dv])


# Node (i, j) at i·N + j: u depends on y_j, v on x_i.
X, Y = np.meshgrid(x, x, indexing="ij")
u0 = (22 * Y * (1 - Y) ** 1.5).ravel()
v0 = (27 * X * (1 - X) ** 1.5).ravel()

ring = diags([1, 1, 1, 1, 1], [-(N - 1), -1, 0, 1, N - 1], shape=(N, N), dtype=float)
block = kron(ring, identity(N)) + kron(identity(N), ring)
pattern = bmat([[block, identity(N * N)], [identity(N * N), block]]) != 0

sol = solve_ivp(
    rate,
    (0.0, T),
    np.concatenate([u0, v0]),
    method="Radau",
    t_eval=[T],
    rtol=1e-12,
    atol=1e-14,
    jac_sparsity=pattern,
)
assert sol.success, sol.message
end = sol.y[:, -1]
check = solve_ivp(rate, (0.0, T), np.concatenate([u0, v0]), method="DOP853", t_eval=[T],
                  rtol=1e-13, atol=1e-14)
assert check.success, check.message
print("dop853 max difference %.3g" % np.abs(check.y[:, -1] - end).max())
u, v = end[: N * N], end[N * N :]
values = [u[10 * N + 10], v[10 * N + 10], u[3 * N + 17], v[17 * N + 3], u.mean()]
print("brusselator %.17g " % T + " ".join("%.17g" % w for w in values))
