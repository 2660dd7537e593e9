"""Speed of the Python packages beside the CLI, the Rust API and NumPy (docs/python.md).

1. Call overhead on a small model (examples/projectile.hph, 652 samples): a Python
   `model.run()` (the model compiled once), `physis.compile(...).run()` (all the work of one
   CLI call, in-process), the `physis run --summary` command (a whole process) and the Rust
   API in one process (`examples/rust_run.rs`); medians, ratios to the Rust API's run.
2. Anchor A6 (GBM, `bench/anchors/ensemble/gbm.hph`, see docs/performance.md): 100,000
   paths, Euler–Maruyama, dt = 1 ms, T = 1 s, in-process vs on a Dask LocalCluster of 2
   worker processes vs NumPy; ratios to NumPy.

Run with the package installed in release (`pip install ./crates/physis-py`):

    python crates/physis-py/bench/bench_python.py [--physis target/release/physis]
        [--rust-run target/release/examples/rust_run] [--paths 100000]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np

import physis

ROOT = pathlib.Path(__file__).resolve().parents[3]
PROJECTILE = ROOT / "examples" / "projectile.hph"
GBM = ROOT / "bench" / "anchors" / "ensemble" / "gbm.hph"


def median_time(f, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def numpy_gbm(paths: int, seed: int) -> np.ndarray:
    """A6 in NumPy: the same scheme, vectorised over paths."""
    rng = np.random.default_rng(seed)
    dt, mu, sigma = 1e-3, 1.0, 0.5
    x = np.ones(paths)
    sq = np.sqrt(dt)
    for _ in range(1000):
        x += mu * x * dt + sigma * x * sq * rng.standard_normal(paths)
    return x


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--physis", default=str(ROOT / "target" / "release" / "physis"))
    ap.add_argument("--rust-run", default=str(ROOT / "target" / "release" / "examples" / "rust_run"))
    ap.add_argument("--paths", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=50)
    args = ap.parse_args()

    print("== call overhead, examples/projectile.hph")
    source = PROJECTILE.read_text(encoding="utf-8")
    model = physis.compile(source)
    py_run = median_time(model.run, args.repeats)
    py_all = median_time(lambda: physis.compile(source).run(), args.repeats)
    rows = [("python model.run()", py_run), ("python compile + run", py_all)]
    if pathlib.Path(args.physis).exists():
        cmd = [args.physis, "run", str(PROJECTILE), "--summary"]
        cli = median_time(lambda: subprocess.run(cmd, check=True, capture_output=True), args.repeats)
        rows.append(("CLI physis run --summary (process)", cli))
    else:
        print(f"(no CLI at {args.physis}: cargo build --release -p physis-cli)")
    rust_run = None
    if pathlib.Path(args.rust_run).exists():
        out = subprocess.run(
            [args.rust_run, str(PROJECTILE), str(args.repeats)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        rust = json.loads(out)
        rust_run = rust["run_s"]
        rows.append(("Rust API run", rust["run_s"]))
        rows.append(("Rust API compile + run", rust["compile_s"] + rust["run_s"]))
    else:
        print(f"(no Rust runner at {args.rust_run}: "
              "cargo build --release -p physis-py --example rust_run)")
    base = rust_run or py_run
    for name, t in rows:
        print(f"{name:40s} {t * 1e3:9.3f} ms   ×{t / base:6.2f}")

    print(f"== A6: {args.paths:,} GBM paths, 1000 steps each")
    gbm = physis.load(GBM)
    t0 = time.perf_counter()
    local = gbm.ensemble(args.paths, seed=1, member_series=False)
    t_local = time.perf_counter() - t0
    t0 = time.perf_counter()
    x_np = numpy_gbm(args.paths, 1)
    t_numpy = time.perf_counter() - t0
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.submit(lambda: 0).result()  # workers up before the clock starts
        t0 = time.perf_counter()
        remote = gbm.ensemble(args.paths, seed=1, member_series=False, client=client)
        t_dask = time.perf_counter() - t0
    x = local.state[:, 0]
    same = np.array_equal(x.view(np.uint64), remote.state[:, 0].view(np.uint64))
    print(f"mean X_T: ours {x.mean():.4f}, NumPy {x_np.mean():.4f}, exact e = {np.e:.4f}; "
          f"Dask result bit-identical to local: {same}")
    for name, t in [("NumPy (vectorised)", t_numpy), ("physis in-process", t_local),
                    ("physis on LocalCluster(2)", t_dask)]:
        print(f"{name:40s} {t:9.3f} s    ×{t / t_numpy:6.2f} of NumPy")
    if not same:
        sys.exit("distributed and local results differ")


if __name__ == "__main__":
    main()
