"""Ensembles: a picklable :class:`EnsembleJob` whose members run in parts anywhere (this
process, Dask workers) and gather into an :class:`EnsembleResult` that is the same to the
last bit however the members were split, since member ``i`` depends on ``(seed, i)`` only
and statistics are taken in member order."""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from . import _native


def _bare(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _unit_of(text: str) -> str:
    t = text.strip()
    i = len(t)
    while i > 0 and not _bare(t[:i]):
        i -= 1
    return t[i:].strip()


def sweep_axes(native: Any, sweep: Mapping[str, Any]) -> list[tuple[str, list[float]]]:
    """``{"v0": "10..50 m/s:5"}``, ``{"k": "1,2,4 N/m"}`` or ``{"k": [1, 2, 4]}`` (numbers
    in SI, strings with units) as ``(name, SI values)`` axes. A unit written once after the
    last value is every bare value's unit, as on the command line."""
    axes = []
    for name, spec in sweep.items():
        if isinstance(spec, str) and ".." in spec:
            lo, rest = spec.split("..", 1)
            hi, _, count = rest.rpartition(":")
            unit = _unit_of(hi)
            lo = f"{lo.strip()} {unit}" if unit and _bare(lo) else lo
            a = native.quantity(name, lo)[0]
            b = native.quantity(name, hi)[0]
            n = int(count)
            if n < 1:
                raise ValueError(f"sweep of {name}: a range needs at least 1 value")
            values = [a] if n == 1 else [a + (b - a) * k / (n - 1) for k in range(n)]
        elif isinstance(spec, str):
            items = spec.split(",")
            unit = _unit_of(items[-1])
            values = [
                native.quantity(name, f"{v.strip()} {unit}" if unit and _bare(v) else v)[0]
                for v in items
            ]
        else:
            from .model import _values

            values = []
            for v in spec:
                values.extend(_values(native, name, v))
        axes.append((name, [float(v) for v in values]))
    return axes


class EnsembleJob:
    """An ensemble ready to run in parts: ``run_part(start, end)`` anywhere, then
    ``gather(parts)``. Pickles as its model's source and its settings."""

    def __init__(self, native: Any, job: dict) -> None:
        self._native = native
        self.job = job
        sets = math.prod(len(v) for _, v in job["sweep"]) if job["sweep"] else 1
        self.members: int = sets * job["count"]

    def run_part(self, start: int, end: int) -> bytes:
        """Members ``start..end`` as an encoded part (GIL released while they run)."""
        return self._native.ensemble_part(self.job, start, end)

    def gather(self, parts: Sequence[bytes]) -> "EnsembleResult":
        """The result from parts covering every member exactly once, in any order."""
        return EnsembleResult(self._native.ensemble_gather(self.job, list(parts)), self)

    def chunks(self, size: int) -> list[tuple[int, int]]:
        """The member ranges of ``size`` members each (the last may be shorter)."""
        if size < 1:
            raise ValueError("a chunk holds at least one member")
        return [(s, min(s + size, self.members)) for s in range(0, self.members, size)]


class EnsembleResult:
    """Per-member results and statistics of an ensemble.

    Attributes: ``index``, ``params`` (``{axis: values}``), ``reasons`` (kinds), ``t``,
    ``state`` (member × slot), ``final`` (``{observe: values}``), ``finals`` (mean, std,
    quantiles of the final values), ``series`` (statistics over time, or ``None``),
    ``member_series`` (``{observe: member × time}``, or ``None``), ``time`` (grid times).
    """

    def __init__(self, raw: dict, job: EnsembleJob) -> None:
        native = job._native
        self.observes = [(n, u) for n, u, _ in native.observes()]
        self.units = {"t": "s", **dict(self.observes)}
        self.quantiles: list[float] = raw["quantiles"]
        self.index: np.ndarray = raw["index"]
        self.params: dict[str, np.ndarray] = dict(raw["params"])
        self.reason_details: list[dict] = raw["reasons"]
        self.reasons: np.ndarray = np.array([r["kind"] for r in raw["reasons"]], dtype=object)
        self.t: np.ndarray = raw["t"]
        self.steps: np.ndarray = raw["steps"]
        self.state: np.ndarray = raw["state"]
        self.final = {n: raw["observe"][:, j] for j, (n, _) in enumerate(self.observes)}
        self.finals: dict = raw["finals"]
        self.series: dict | None = raw["series"]
        self.no_series: str | None = raw["no_series"]
        ms = raw["member_series"]
        self.member_series = (
            None if ms is None else {n: ms[j] for j, (n, _) in enumerate(self.observes)}
        )
        if self.series is not None:
            self.time: np.ndarray | None = self.series["t"]
        else:
            self.time = None

    def __len__(self) -> int:
        return len(self.index)

    def to_pandas(self) -> Any:
        """One row per member: index, swept params, reason, final time and observes."""
        import pandas as pd

        df = pd.DataFrame(
            {
                "member": self.index,
                **self.params,
                "reason": self.reasons,
                "t": self.t,
                **self.final,
            }
        )
        df.attrs["units"] = dict(self.units)
        return df

    def series_frame(self) -> Any:
        """Statistics over time as a DataFrame: ``t``, ``n`` and per observe its mean, std
        and quantiles (``x_q0.05``...)."""
        import pandas as pd

        if self.series is None:
            raise ValueError(f"no statistics over time: {self.no_series}")
        cols: dict[str, Any] = {"t": self.series["t"], "n": self.series["n"]}
        for c in self.series["columns"]:
            cols[f"{c['name']}_mean"] = c["mean"]
            cols[f"{c['name']}_std"] = c["std"]
            for q, row in zip(self.quantiles, c["quantiles"]):
                cols[f"{c['name']}_q{q:g}"] = row
        return pd.DataFrame(cols)

    def to_xarray(self) -> Any:
        """An xarray Dataset over ``member`` × ``time``: each observe per member (when kept),
        its mean, std and quantiles over time, the final values and reasons per member,
        swept params as member coordinates; units in the attrs."""
        import xarray as xr

        coords: dict[str, Any] = {"member": ("member", self.index)}
        for name, values in self.params.items():
            coords[name] = ("member", values)
        data: dict[str, Any] = {
            "reason": ("member", self.reasons.astype(str)),
            "t_final": ("member", self.t, {"units": "s"}),
        }
        for n, unit in self.observes:
            data[f"{n}_final"] = ("member", self.final[n], {"units": unit})
        if self.series is not None:
            coords["time"] = ("time", self.series["t"], {"units": "s"})
            coords["quantile"] = ("quantile", np.asarray(self.quantiles))
            data["n"] = ("time", self.series["n"])
            for c in self.series["columns"]:
                unit = self.units[c["name"]]
                data[f"{c['name']}_mean"] = ("time", c["mean"], {"units": unit})
                data[f"{c['name']}_std"] = ("time", c["std"], {"units": unit})
                data[f"{c['name']}_quantile"] = (
                    ("quantile", "time"),
                    c["quantiles"],
                    {"units": unit},
                )
            if self.member_series is not None:
                for n, unit in self.observes:
                    data[n] = (("member", "time"), self.member_series[n], {"units": unit})
        return xr.Dataset(data, coords=coords)

    def __repr__(self) -> str:
        kinds = {k: int((self.reasons == k).sum()) for k in sorted(set(self.reasons))}
        return f"<physis.EnsembleResult {len(self)} members, reasons {kinds}>"
