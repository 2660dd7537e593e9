"""An independent Rodas3 in NumPy, to check the step growth of physis' `rodas3` per 100x
tighter tolerance (docs/rosenbrock.md).

The coefficients are Sandu et al.'s (1997) Rodas3 as KPP and FATODE tabulate it
(ComputationalScienceLaboratory/FATODE, FWD/ROS/ROS_f90_Integrator.F90, subroutine Rodas3):
gamma = 1/2, A21 = 0, A31 = 2, A32 = 0, A41 = 2, A42 = 0, A43 = 1, C21 = 4, C31 = 1,
C32 = -1, C41 = 1, C42 = -1, C43 = -8/3, M = (2, 0, 1, 1), E = (0, 0, 0, 1),
alpha = (0, 0, 1, 1), gamma_i = (1/2, 3/2, 0, 0), estimator order ELO = 3. Each stage solves
(I/(h*gamma) - J) K_i = f(t + alpha_i h, y + sum_j A_ij K_j) + sum_j C_ij/h K_j + gamma_i h f_t.

The controller is the textbook one (Hairer, Norsett & Wanner I, II.4): RMS norm with
sc = atol + rtol*max(|y|, |ynew|), factor 0.9*err^(-1/ELO) within [0.2, 10], no growth right
after a rejection, Hairer's starting step. rtol = atol = tol (physis uses a running-peak
absolute tolerance, so the counts differ by a few steps; the ratios are the point).

Problems: the Riccati equation y' = 1 + y^2 on [0, 1] (tan t, not stiff) and Van der Pol
mu = 1000 on [0, 3000] (stiff). Run: python3 rodas3_growth.py
"""

import numpy as np

G = 0.5
A = {(2, 1): 0.0, (3, 1): 2.0, (3, 2): 0.0, (4, 1): 2.0, (4, 2): 0.0, (4, 3): 1.0}
C = {(2, 1): 4.0, (3, 1): 1.0, (3, 2): -1.0, (4, 1): 1.0, (4, 2): -1.0, (4, 3): -8.0 / 3.0}
M = (2.0, 0.0, 1.0, 1.0)
E = (0.0, 0.0, 0.0, 1.0)
ALPHA = (0.0, 0.0, 1.0, 1.0)
GAMMA = (0.5, 1.5, 0.0, 0.0)
ELO = 3.0


def norm(e, y, yn, tol):
    sc = tol + tol * np.maximum(np.abs(y), np.abs(yn))
    return float(np.sqrt(np.mean((e / sc) ** 2)))


def initial_step(f, t0, y0, tol, order):
    f0 = f(t0, y0)
    sc = tol + tol * np.abs(y0)
    d0 = np.sqrt(np.mean((y0 / sc) ** 2))
    d1 = np.sqrt(np.mean((f0 / sc) ** 2))
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    f1 = f(t0 + h0, y0 + h0 * f0)
    d2 = np.sqrt(np.mean(((f1 - f0) / sc) ** 2)) / h0
    m = max(d1, d2)
    h1 = max(1e-6, h0 * 1e-3) if m <= 1e-15 else (0.01 / m) ** (1.0 / order)
    return min(100 * h0, h1)


def rodas3(f, jac, ft, t0, y0, t1, tol):
    t, y = t0, np.array(y0, dtype=float)
    n = len(y)
    h = initial_step(f, t0, y, tol, ELO)
    steps = rejected = 0
    rejected_last = False
    while t < t1 * (1 - 1e-15):
        h = min(h, t1 - t)
        f0, J, dt = f(t, y), jac(t, y), ft(t, y)
        lu = np.eye(n) / (h * G) - J
        K = []
        for i in range(1, 5):
            yi = y + sum(A[(i, j)] * K[j - 1] for j in range(1, i))
            fi = f0 if i <= 2 else f(t + ALPHA[i - 1] * h, yi)
            rhs = fi + sum(C[(i, j)] / h * K[j - 1] for j in range(1, i)) + GAMMA[i - 1] * h * dt
            K.append(np.linalg.solve(lu, rhs))
        yn = y + sum(m * k for m, k in zip(M, K))
        e = sum(c * k for c, k in zip(E, K))
        err = norm(e, y, yn, tol)
        fac = 10.0 if err == 0 else min(10.0, max(0.2, 0.9 * err ** (-1.0 / ELO)))
        if err <= 1.0:
            t, y = t + h, yn
            steps += 1
            h *= min(fac, 1.0) if rejected_last else fac
            rejected_last = False
        else:
            rejected += 1
            rejected_last = True
            h *= fac
    return steps, rejected, y


def riccati():
    return (
        lambda t, y: 1.0 + y**2,
        lambda t, y: np.array([[2.0 * y[0]]]),
        lambda t, y: np.zeros(1),
        0.0,
        [0.0],
        1.0,
    )


def van_der_pol(mu=1000.0):
    def f(t, y):
        return np.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])

    def jac(t, y):
        return np.array([[0.0, 1.0], [-2 * mu * y[0] * y[1] - 1.0, mu * (1 - y[0] ** 2)]])

    return f, jac, lambda t, y: np.zeros(2), 0.0, [2.0, 0.0], 3000.0


if __name__ == "__main__":
    for name, prob, tols in [
        ("riccati", riccati(), [1e-6, 1e-8, 1e-10]),
        ("van_der_pol", van_der_pol(), [1e-4, 1e-6, 1e-8]),
    ]:
        last = None
        for tol in tols:
            steps, rej, y = rodas3(*prob, tol)
            growth = "" if last is None else f" growth {steps / last:.2f}x"
            print(f"{name} tol {tol:g}: {steps} steps, {rej} rejected, y(end) {y}{growth}")
            last = steps
