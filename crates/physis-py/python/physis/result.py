"""A single run's result: why it ended, the final state and the samples as NumPy arrays
(which own the run's column memory: no copy), with pandas, polars and xarray views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Reason:
    """Why a run ended: ``kind`` is ``when``, ``limit``, ``diverged``, ``unstable`` or
    ``violated``; ``clause`` and ``line`` name the responsible clause where one is."""

    kind: str
    clause: str | None = None
    line: int | None = None
    hint: str | None = None


class Result:
    """Samples and end of one run. ``result["height"]`` is a column."""

    def __init__(self, raw: dict) -> None:
        self.reason = Reason(**raw["reason"])
        self.t: float = raw["t"]
        self.state: np.ndarray = raw["state"]
        self.stats: dict[str, int] = raw["stats"]
        self.time: np.ndarray = raw["time"]
        self.columns: dict[str, np.ndarray] = {n: a for n, _, a in raw["columns"]}
        self.units: dict[str, str] = {"t": "s", **{n: u for n, u, _ in raw["columns"]}}
        self.final: dict[str, float] = {
            n: float(v) for n, v in zip(self.columns, raw["observe"])
        }

    def __getitem__(self, name: str) -> np.ndarray:
        return self.time if name == "t" else self.columns[name]

    def __len__(self) -> int:
        return len(self.time)

    def to_pandas(self) -> Any:
        """A DataFrame with ``t`` and one column per observe; units in ``df.attrs["units"]``."""
        import pandas as pd

        df = pd.DataFrame({"t": self.time, **self.columns}, copy=False)
        df.attrs["units"] = dict(self.units)
        return df

    def to_polars(self) -> Any:
        """A polars DataFrame (needs polars); units in each column's name-to-unit map
        ``self.units``."""
        import polars as pl

        return pl.DataFrame({"t": self.time, **self.columns})

    def to_xarray(self) -> Any:
        """An xarray Dataset: time as the coordinate ``t``, units in each variable's attrs."""
        import xarray as xr

        data = {
            n: ("t", a, {"units": self.units[n]}) for n, a in self.columns.items()
        }
        return xr.Dataset(
            data,
            coords={"t": ("t", self.time, {"units": "s"})},
            attrs={"reason": self.reason.kind},
        )

    def __repr__(self) -> str:
        return (
            f"<physis.Result {self.reason.kind} at t={self.t:g} s, "
            f"{len(self)} samples of {', '.join(self.columns)}>"
        )
