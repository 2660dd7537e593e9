"""Physis from Python: load or compile a model, run it, run ensembles (locally or on a Dask
cluster, bit-identical either way) and get NumPy, pandas, polars and xarray results.

>>> import physis
>>> model = physis.load("examples/projectile.hph")
>>> result = model.run(v0="50 m/s")
>>> result.reason.kind
'when'

The exact engine is the sibling package :mod:`centl`.
"""

from __future__ import annotations

from ._errors import Diagnostic, PhysisError
from .ensemble import EnsembleJob, EnsembleResult
from .model import Model, Param, compile, load
from .result import Reason, Result

__all__ = [
    "Diagnostic",
    "EnsembleJob",
    "EnsembleResult",
    "Model",
    "Param",
    "PhysisError",
    "Reason",
    "Result",
    "compile",
    "load",
]
