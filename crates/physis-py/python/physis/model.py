"""Models: :func:`load` and :func:`compile` give a :class:`Model` with its params (with
units), named runs and diagnostics; :meth:`Model.run` and :meth:`Model.ensemble` run it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from . import _native
from ._errors import Diagnostic
from .result import Result

# Run options that are not params; a param with one of these names is set through params=.
_OPTIONS = ("run", "step", "tolerance", "seed", "limit", "record_every")


@dataclass(frozen=True)
class Param:
    """A param: its name, SI unit, dimension and default value(s) in SI."""

    name: str
    unit: str
    dimension: str
    default: float | tuple[float, ...]


def compile(source: str, *, sim: str | None = None, file: str = "<string>") -> "Model":
    """Checks and lowers a Physis source; raises :class:`PhysisError` if it does not check."""
    return Model(_native.Model(source, file, sim))


def load(path: str | os.PathLike[str], *, sim: str | None = None) -> "Model":
    """Reads and compiles a ``.hph`` file."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return compile(source, sim=sim, file=os.fspath(path))


def _values(native: Any, name: str, value: Any) -> list[float]:
    """A param's value(s) in SI: ``"50 m/s"``, a number (SI), or a sequence of either."""
    if isinstance(value, str):
        return list(native.quantity(name, value))
    if isinstance(value, (int, float)):
        return [float(value)]
    out: list[float] = []
    for v in value:
        out.extend(_values(native, name, v))
    return out


def _seconds(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):
        return _native.Model.seconds(value)
    return float(value)


class Model:
    """A checked simulation. Pickles as its source (Dask workers rebuild it)."""

    def __init__(self, native: Any) -> None:
        self._native = native

    @property
    def name(self) -> str:
        """The simulation's name."""
        return self._native.name

    @property
    def file(self) -> str:
        return self._native.file

    @property
    def source(self) -> str:
        return self._native.source

    @property
    def params(self) -> dict[str, Param]:
        """Every param the run reads, by declared name."""
        out = {}
        for p in self._native.params():
            d = p["default"]
            default = d[0] if p["len"] == 1 else tuple(d)
            out[p["name"]] = Param(p["name"], p["unit"], p["dimension"], default)
        return out

    @property
    def runs(self) -> dict[str, dict[str, list[float]]]:
        """Named runs: ``{name: {param: SI values}}``."""
        return {name: dict(over) for name, over in self._native.runs()}

    @property
    def observes(self) -> dict[str, str]:
        """Observed columns and their SI units."""
        return {name: unit for name, unit, _ in self._native.observes()}

    def check(self) -> list[Diagnostic]:
        """Diagnostics of checking the source (warnings: a model with errors never loads)."""
        return [Diagnostic(**d) for d in self._native.diagnostics()]

    def _settings(
        self,
        run: str | None,
        step: Any,
        tolerance: float | None,
        seed: int | None,
        limit: int | None,
        record_every: Any,
        params: Mapping[str, Any] | None,
        kwargs: Mapping[str, Any],
    ) -> dict:
        merged = dict(params or {})
        merged.update(kwargs)
        return {
            "params": [(n, _values(self._native, n, v)) for n, v in merged.items()],
            "scenario": run,
            "step": _seconds(step),
            "tolerance": None if tolerance is None else float(tolerance),
            "seed": seed,
            "limit": limit,
            "record_every": _seconds(record_every),
        }

    def run(
        self,
        *,
        run: str | None = None,
        step: Any = None,
        tolerance: float | None = None,
        seed: int | None = None,
        limit: int | None = None,
        record_every: Any = None,
        params: Mapping[str, Any] | None = None,
        **values: Any,
    ) -> Result:
        """Runs once. Params by keyword with their units (``v0="50 m/s"``) or in SI as
        numbers; ``run`` names a scenario; ``step`` and ``record_every`` take ``"1 ms"`` or
        seconds. The GIL is released while the model runs."""
        settings = self._settings(run, step, tolerance, seed, limit, record_every, params, values)
        return Result(self._native.run(settings))

    def ensemble(
        self,
        n: int = 1,
        *,
        seed: int | None = None,
        sweep: Mapping[str, Any] | None = None,
        client: Any = None,
        chunk: int | None = None,
        quantiles: Sequence[float] = (0.05, 0.5, 0.95),
        threads: int | None = None,
        member_series: bool = True,
        run: str | None = None,
        step: Any = None,
        tolerance: float | None = None,
        limit: int | None = None,
        record_every: Any = None,
        params: Mapping[str, Any] | None = None,
        **values: Any,
    ):
        """Runs ``n`` members per parameter set of ``sweep`` (``{"v0": "10..50 m/s:5"}``,
        ``{"k": [1, 2, 4]}``; several give their product). Member ``i`` uses noise stream
        ``i`` of ``seed``. With a Dask ``client`` the members run on its workers in chunks
        of ``chunk``; the result is bit-identical to a local run whatever the split."""
        job = self.ensemble_job(
            n,
            seed=seed,
            sweep=sweep,
            quantiles=quantiles,
            threads=threads,
            member_series=member_series,
            run=run,
            step=step,
            tolerance=tolerance,
            limit=limit,
            record_every=record_every,
            params=params,
            **values,
        )
        if client is None:
            return job.gather([job.run_part(0, job.members)])
        from .distributed import run_on

        return run_on(client, job, chunk)

    def ensemble_job(
        self,
        n: int = 1,
        *,
        seed: int | None = None,
        sweep: Mapping[str, Any] | None = None,
        quantiles: Sequence[float] = (0.05, 0.5, 0.95),
        threads: int | None = None,
        member_series: bool = True,
        run: str | None = None,
        step: Any = None,
        tolerance: float | None = None,
        limit: int | None = None,
        record_every: Any = None,
        params: Mapping[str, Any] | None = None,
        **values: Any,
    ):
        """The ensemble :meth:`ensemble` runs, as a picklable job to split by hand."""
        from .ensemble import EnsembleJob, sweep_axes

        settings = self._settings(run, step, tolerance, seed, limit, record_every, params, values)
        job = {
            "settings": settings,
            "count": int(n),
            "sweep": sweep_axes(self._native, sweep or {}),
            "quantiles": [float(q) for q in quantiles],
            "threads": threads,
            "member_series": bool(member_series),
        }
        return EnsembleJob(self._native, job)

    def __repr__(self) -> str:
        return f"<physis.Model {self.name} from {self.file}>"
