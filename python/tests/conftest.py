"""Shared fixtures of the Python tests: the repository's paths, a GBM model with an
observe, and a real Dask LocalCluster of two worker processes (started once per session)."""

from __future__ import annotations

import os
import pathlib
import random

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

GBM = """
// A6-like geometric Brownian motion dX = μX dt + σX dW with an observe, for ensembles.
simulate Gbm {
  param μ : Frequency = 1 Hz
  param σ : Frequency = 0.25 Hz
  state y : Dimensionless = 1
  noise w
  law y' = μ·y + √σ·y·w
  integrate eulerMaruyama step 10 ms seed 1
  observe x ≔ y
  stop when t ≥ 1 s
}
"""


@pytest.fixture(scope="session")
def projectile():
    import physis

    return physis.load(EXAMPLES / "projectile.hph")


@pytest.fixture(scope="session")
def gbm():
    import physis

    return physis.compile(GBM, file="gbm.hph")


@pytest.fixture
def fresh_seed() -> int:
    """A new seed each run, printed so a failure can be replayed."""
    seed = int(os.environ.get("PHYSIS_TEST_SEED", random.SystemRandom().randrange(2**32)))
    print(f"seed = {seed} (replay with PHYSIS_TEST_SEED={seed})")
    return seed


@pytest.fixture(scope="session")
def client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()
