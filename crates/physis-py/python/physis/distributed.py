"""Ensembles on a Dask cluster: members shard in chunks by index across the workers; Dask
retries a chunk whose worker fails, and since a member's path depends on ``(seed, index)``
only, the gathered result is bit-identical to a local run."""

from __future__ import annotations

from typing import Any

from .ensemble import EnsembleJob, EnsembleResult


def _run_part(job: EnsembleJob, start: int, end: int) -> bytes:
    return job.run_part(start, end)


def run_on(client: Any, job: EnsembleJob, chunk: int | None = None) -> EnsembleResult:
    """Runs ``job`` on ``client``'s workers in chunks of ``chunk`` members (default: about
    four chunks per worker) and gathers the parts here."""
    if chunk is None:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        chunk = max(1, -(-job.members // (4 * workers)))
    remote = client.scatter(job, broadcast=True)
    futures = [
        client.submit(_run_part, remote, s, e, pure=False, retries=2)
        for s, e in job.chunks(chunk)
    ]
    parts = client.gather(futures)
    return job.gather(parts)
