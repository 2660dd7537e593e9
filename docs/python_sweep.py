# A parameter sweep from Python, notebook style (each `# %%` is a cell; Jupyter, VS Code and
# Spyder run them one by one). python/tests/test_docs_example.py runs the whole file.
#
#     python docs/python_sweep.py [OUT.png]

# %% Load the bundled projectile (linear drag, stops when it lands).
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt

import physis

root = pathlib.Path(__file__).resolve().parents[1]
model = physis.load(root / "examples" / "projectile.hph")
print(model.params["v₀"], model.params["α"], sep="\n")

# %% Sweep launch speed and angle: 5 × 7 members, one run each, in parallel.
result = model.ensemble(sweep={"v0": "10..50 m/s:5", "α": "15..75 deg:7"})
df = result.to_pandas()
df["range"] = [  # horizontal distance at landing: the final x[0] state slot
    float(s[0]) for s in result.state
]
print(df.head())

# %% Plot range against angle, one line per speed.
fig, ax = plt.subplots(figsize=(6, 4))
for v0, group in df.groupby("v₀"):
    ax.plot(group["α"] * 180 / 3.141592653589793, group["range"], marker="o", label=f"{v0:g} m/s")
ax.set_xlabel("launch angle α [deg]")
ax.set_ylabel("range [m]")
ax.set_title("Projectile with linear drag: range by launch speed")
ax.legend(title="v₀")
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "python_sweep.png")
fig.savefig(out, dpi=100)
print(f"wrote {out}")
