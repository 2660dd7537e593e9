"""Ensembles on a real Dask LocalCluster of two worker processes: bit-identical to the
local run for every chunking, and still so when a worker dies mid-run (Dask reschedules
its chunk on the restarted worker)."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("distributed")


def bits(a):
    return np.ascontiguousarray(a, dtype=np.float64).view(np.uint64)


def same(a, b):
    assert np.array_equal(a.index, b.index)
    assert np.array_equal(bits(a.final["x"]), bits(b.final["x"]))
    assert np.array_equal(bits(a.t), bits(b.t))
    assert np.array_equal(bits(a.member_series["x"]), bits(b.member_series["x"]))
    for sa, sb in zip(a.series["columns"], b.series["columns"]):
        assert np.array_equal(bits(sa["mean"]), bits(sb["mean"]))
        assert np.array_equal(bits(sa["quantiles"]), bits(sb["quantiles"]))
    assert list(a.reasons) == list(b.reasons)


@pytest.mark.parametrize("chunk", [1, 2, 7, None])
def test_distributed_equals_local_bit_for_bit(gbm, client, fresh_seed, chunk):
    n = 120
    local = gbm.ensemble(n, seed=fresh_seed, sweep={"mu": [1.0, 0.5]})
    remote = gbm.ensemble(
        n, seed=fresh_seed, sweep={"mu": [1.0, 0.5]}, client=client, chunk=chunk or 2 * n
    )
    same(remote, local)


def _dies_once(job, start, end, flag):
    # The first task to get here kills its own worker process (no clean shutdown), once.
    try:
        fd = os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return job.run_part(start, end)
    os.close(fd)
    os._exit(1)


def test_a_dead_worker_loses_nothing(gbm, client, tmp_path, fresh_seed):
    job = gbm.ensemble_job(200, seed=fresh_seed)
    flag = str(tmp_path / "killed")
    remote = client.scatter(job, broadcast=True)
    futures = [
        client.submit(_dies_once, remote, s, e, flag, pure=False, retries=2)
        for s, e in job.chunks(25)
    ]
    parts = client.gather(futures)
    assert os.path.exists(flag), "no worker was killed"
    same(job.gather(parts), gbm.ensemble(200, seed=fresh_seed))
