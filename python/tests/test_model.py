"""Loading, checking and running models: params with units, named runs, samples as NumPy
arrays and their pandas/polars/xarray views; the projectile's stop time against the closed
form of linear drag; errors carry diagnostic codes and spans."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

import physis

G0 = 9.80665


def drag_stop_time(v0: float, alpha: float, k: float) -> float:
    """Landing time of y(t) = (vy/k + g/k²)(1 − e^{−kt}) − g t/k, by Newton from the
    drag-free time (an independent closed form, not our integrator)."""
    vy = v0 * math.sin(alpha)
    t = 2 * vy / G0
    for _ in range(100):
        e = math.exp(-k * t)
        y = (vy / k + G0 / k**2) * (1 - e) - G0 * t / k
        dy = (vy + G0 / k) * e - G0 / k
        t -= y / dy
    return t


def test_params_runs_and_observes_with_units(projectile):
    p = projectile.params
    assert set(p) == {"v₀", "α", "k"}
    assert p["v₀"].unit == "m/s" and p["v₀"].default == 30.0
    assert p["k"].unit == "1/s" or p["k"].unit == "s^-1"
    assert "Steep" in projectile.runs
    assert math.isclose(projectile.runs["Steep"]["α"][0], math.radians(70))
    assert projectile.observes == {"height": "m", "speed": "m/s"}
    assert projectile.check() == []


def test_stop_time_matches_the_closed_form(projectile):
    r = projectile.run(v0="50 m/s")
    assert r.reason.kind == "when" and r.reason.line == 14
    exact = drag_stop_time(50.0, math.pi / 4, 0.1)
    assert abs(r.t - exact) < 1e-6, (r.t, exact)
    # Named run and SI numbers.
    steep = projectile.run(run="Steep", params={"v₀": 50.0})
    assert abs(steep.t - drag_stop_time(50.0, math.radians(70), 0.1)) < 1e-6


def test_samples_are_numpy_columns_with_frames(projectile):
    r = projectile.run()
    assert isinstance(r.time, np.ndarray) and r.time.dtype == np.float64
    assert r["height"].shape == r.time.shape
    assert r.final["height"] == r["height"][-1]
    df = r.to_pandas()
    assert list(df.columns) == ["t", "height", "speed"]
    assert df.attrs["units"]["speed"] == "m/s"
    assert np.array_equal(df["height"].to_numpy(), r["height"])
    ds = r.to_xarray()
    assert ds["height"].attrs["units"] == "m"
    assert ds["t"].attrs["units"] == "s"
    assert np.array_equal(ds["t"].values, r.time)
    pl = pytest.importorskip("polars")
    frame = r.to_polars()
    assert isinstance(frame, pl.DataFrame) and frame.columns == ["t", "height", "speed"]


def test_a_source_that_does_not_check_raises_with_code_and_span():
    bad = "simulate S {\n  state x : Length = 0 m\n  law x' = 1 s\n  stop when t ≥ 1 s\n}\n"
    with pytest.raises(physis.PhysisError) as e:
        physis.compile(bad)
    err = e.value
    assert err.code.startswith("PH")
    assert err.span is not None and err.span[0] < err.span[1]
    assert err.diagnostics and err.diagnostics[0].line is not None


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"nope": "1 m"}, "PH0201"),
        ({"v0": "50 s"}, "PH0204"),
        ({"v0": "50 furlongs/s"}, "PH0205"),
        ({"v0": "fast"}, "PH0207"),
        ({"run": "Shallow"}, "PH0201"),
        ({"step": "-1 ms"}, "PH0110"),
    ],
)
def test_bad_arguments_raise_with_codes(projectile, kwargs, code):
    with pytest.raises(physis.PhysisError) as e:
        projectile.run(**kwargs)
    assert e.value.code == code, e.value


def test_the_gil_is_released_while_a_run_works(gbm):
    # A second thread counts only while the main thread is inside the ensemble call. Were
    # the GIL held there, it could not run at all until the call returned (the main thread
    # runs no Python bytecode in between that would hand the GIL over).
    inside = threading.Event()
    stop = threading.Event()
    counts = [0]

    def count():
        while not stop.is_set():
            if inside.is_set():
                counts[0] += 1

    worker = threading.Thread(target=count)
    worker.start()
    try:
        inside.set()
        gbm.ensemble(20000, seed=3, member_series=False)
        inside.clear()
    finally:
        stop.set()
        worker.join()
    assert counts[0] > 10000, counts
