"""Robertson (1e0 ... 1e11 s) and Van der Pol mu = 1000 (3000 s) through the `physis` binary
under each adaptive stiff scheme and tolerance, against the SciPy Radau references of
refs.txt. Prints one line per run: the worst relative error of y1 and y3 over the twelve
times, the worst absolute and relative error of y2, and the work of the run to 1e11 s.

Run (release binary): python3 sweep.py ../../../../target/release/physis > sweep.txt"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
physis = sys.argv[1] if len(sys.argv) > 1 else "physis"
schemes = sys.argv[2].split(",") if len(sys.argv) > 2 else ["esdirk43"]

rob_ref, vdp_ref = [], None
for line in open(os.path.join(HERE, "refs.txt")):
    f = line.split()
    if f[0] == "robertson":
        rob_ref.append([float(x) for x in f[1:]])
    elif f[0] == "vdp":
        vdp_ref = [float(x) for x in f[1:]]


def run(template, subs):
    text = open(os.path.join(HERE, template)).read()
    for k, v in subs.items():
        text = text.replace(k, v)
    with tempfile.NamedTemporaryFile("w", suffix=".hph", delete=False) as fh:
        fh.write(text)
    t0 = time.perf_counter()
    out = subprocess.run([physis, "run", "--summary", fh.name], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    os.unlink(fh.name)
    if out.returncode != 0:
        return None, dt, out.stderr.strip().splitlines()[:1]
    return json.loads(out.stdout), dt, None


def work(s, dt):
    return "steps %5d rejected %4d evals %6d jacobians %5d LUs %5d  %.3f s" % (
        s["steps"], s["rejected"], s["evaluations"], s.get("jacobians", -1),
        s.get("factorisations", -1), dt)


ABS = "abs a: 1e-14 mol/L, b: 1e-18 mol/L, c: 1e-14 mol/L"
print("# Robertson, worst errors over t = 1e0 ... 1e11 s; work of the run to 1e11 s")
for scheme in schemes:
    for tol in ["1e-4", "1e-6", "1e-8", "1e-10"]:
        for absolute in ["", ABS]:
            settings = f"{scheme} tolerance {tol} {absolute}".strip()
            e1 = e3 = e2a = e2r = 0.0
            last = None
            failed = None
            for t, r1, r2, r3 in rob_ref:
                s, dt, err = run("robertson.hph", {"SETTINGS": settings, "END": "%g s" % t})
                if s is None or s["reason"]["kind"] != "when":
                    failed = err or s["reason"]
                    break
                y = s["final"]["observe"]
                y1, y2, y3 = y["y₁"], y["y₂"], y["y₃"]
                e1 = max(e1, abs(y1 - r1) / r1)
                e3 = max(e3, abs(y3 - r3) / r3)
                e2a = max(e2a, abs(y2 - r2))
                e2r = max(e2r, abs(y2 - r2) / r2)
                last = (s, dt)
            if failed:
                print(f"{settings}: FAILED at t = {t:g}: {failed}")
                continue
            print(f"{settings}: y1 {e1:.1e} y3 {e3:.1e} y2 abs {e2a:.1e} rel {e2r:.1e} | "
                  + work(*last))

print("# Van der Pol mu = 1000 to 3000 s, relative error of x and x'")
for scheme in schemes:
    for tol in ["1e-4", "1e-6", "1e-8", "1e-10"]:
        settings = f"{scheme} tolerance {tol}"
        s, dt, err = run("van_der_pol.hph", {"SETTINGS": settings})
        if s is None or s["reason"]["kind"] != "when":
            print(f"{settings}: FAILED {err or s['reason']}")
            continue
        y = s["final"]["observe"]
        ex = abs(y["position"] - vdp_ref[1]) / abs(vdp_ref[1])
        ev = abs(y["velocity"] - vdp_ref[2]) / abs(vdp_ref[2])
        print(f"{settings}: x {ex:.1e} x' {ev:.1e} | " + work(s, dt))
