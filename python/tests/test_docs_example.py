"""docs/python_sweep.py runs as written and draws its figure; its ranges agree with the
optimum angle of a projectile with drag (below 45°)."""

from __future__ import annotations

import runpy
import sys

from conftest import ROOT


def test_the_sweep_example_runs_and_writes_a_png(tmp_path, monkeypatch):
    out = tmp_path / "sweep.png"
    monkeypatch.setattr(sys, "argv", ["python_sweep.py", str(out)])
    ns = runpy.run_path(str(ROOT / "docs" / "python_sweep.py"), run_name="__main__")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    df = ns["df"]
    assert len(df) == 35
    # With drag the best angle for range is below 45° (and it is 45° without drag).
    fast = df[df["v₀"] == df["v₀"].max()]
    best = fast.loc[fast["range"].idxmax(), "α"]
    assert best < 0.7854
