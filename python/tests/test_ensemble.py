"""Local ensembles: GBM's mean against its expectation, sweeps against single runs, the
member × time Dataset, and any split gathering to the same bits as one run."""

from __future__ import annotations

import math

import numpy as np
import pytest

import physis


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


def test_gbm_mean_matches_its_expectation(gbm, fresh_seed):
    n = 4000
    r = gbm.ensemble(n, seed=fresh_seed)
    x = r.final["x"]
    assert (r.reasons == "when").all()
    # E[X_T] = e^{μT} for GBM, whatever σ; 5 standard errors.
    se = x.std(ddof=1) / math.sqrt(n)
    assert abs(x.mean() - math.e) < 5 * se, (x.mean(), se)
    # Var[X_T] = e^{2μT}(e^{σ²T} − 1) with σ² = 0.25 /s: loose, a variance's error is wider.
    var = math.e**2 * (math.exp(0.25) - 1)
    assert abs(x.var(ddof=1) - var) < 0.25 * var


def test_dataset_is_member_by_time_with_statistics(gbm):
    r = gbm.ensemble(300, seed=5)
    ds = r.to_xarray()
    assert ds["x"].dims == ("member", "time")
    assert ds["x"].shape == (300, 101)
    assert ds["x"].attrs["units"] == "1"
    assert ds["time"].attrs["units"] == "s"
    # The statistics over time equal NumPy's over the member axis (same order: members).
    assert np.allclose(ds["x_mean"].values, ds["x"].mean("member").values, rtol=1e-12)
    assert np.allclose(ds["x_std"].values, ds["x"].std("member", ddof=1).values, rtol=1e-9)
    assert ds["x_quantile"].dims == ("quantile", "time")
    df = r.to_pandas()
    assert len(df) == 300 and set(df.columns) >= {"member", "reason", "t", "x"}
    assert r.series_frame().shape[0] == 101


def test_sweep_members_equal_single_runs(projectile):
    r = projectile.ensemble(sweep={"v0": "10..50 m/s:5"})
    assert np.allclose(r.params["v₀"], [10, 20, 30, 40, 50])
    for v0, t in zip(r.params["v₀"], r.t):
        assert t == projectile.run(v0=float(v0)).t
    # Lists of quantities and products of axes.
    r2 = projectile.ensemble(sweep={"v0": ["10 m/s", "20 m/s"], "k": "0.1,0.2 Hz"})
    assert len(r2) == 4


@pytest.mark.parametrize("chunk", [1, 2, 7, None])
def test_any_local_split_gathers_to_the_same_bits(gbm, chunk):
    job = gbm.ensemble_job(150, seed=11, sweep={"mu": [1.0, 0.5]})
    whole = gbm.ensemble(150, seed=11, sweep={"mu": [1.0, 0.5]})
    size = chunk or job.members
    parts = [job.run_part(s, e) for s, e in reversed(job.chunks(size))]
    r = job.gather(parts)
    assert np.array_equal(bits(r.final["x"]), bits(whole.final["x"]))
    assert np.array_equal(bits(r.member_series["x"]), bits(whole.member_series["x"]))
    assert np.array_equal(bits(r.series["columns"][0]["mean"]), bits(whole.series["columns"][0]["mean"]))


def test_bad_parts_and_arguments_raise_with_codes(gbm):
    job = gbm.ensemble_job(10, seed=1)
    with pytest.raises(physis.PhysisError) as e:
        job.gather([job.run_part(0, 5)])
    assert e.value.code == "PH0207"
    with pytest.raises(physis.PhysisError) as e:
        job.gather([b"garbage"])
    assert e.value.code == "PH0207"
    with pytest.raises(physis.PhysisError) as e:
        gbm.ensemble(0)
    assert e.value.code == "PH0207"
    with pytest.raises(physis.PhysisError) as e:
        gbm.ensemble(3, sweep={"nope": [1.0]})
    assert e.value.code == "PH0201"
