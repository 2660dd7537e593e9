#!/usr/bin/env bash
# ARCHITECTURE.md must stay true: every path it names in backticks must exist, its table of
# who depends on whom must equal the workspace's own dependencies, and each arrow `a → b` of
# its opening chains must be a dependency of b on a (the runtime, said to depend on none of
# ours, must not).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=0
while IFS= read -r path; do
  if [ ! -e "$path" ]; then
    echo "ARCHITECTURE.md names a missing path: $path" >&2
    missing=1
  fi
done < <(grep -oE '`(crates|examples|docs|bench|tests|\.ci)/[^`]*`' ARCHITECTURE.md | tr -d '`' | sort -u)

# The dependency table: rows `| crate | dep, dep |` after the "Who depends on whom" heading.
if ! cargo metadata --format-version 1 --no-deps --offline 2>/dev/null | python3 -c '
import json, re, sys
meta = json.load(sys.stdin)
ours = {p["name"] for p in meta["packages"]}
actual = {
    p["name"]: sorted({d["name"] for d in p["dependencies"] if d["name"] in ours and d["kind"] is None})
    for p in meta["packages"]
}
text = open("ARCHITECTURE.md", encoding="utf-8").read()
section = text.split("### Who depends on whom", 1)[1].split("\n#", 1)[0]
stated = {}
for line in section.splitlines():
    m = re.match(r"^\| ([a-z0-9-]+) \| (.*) \|$", line)
    if m and m.group(1) != "crate":
        deps = m.group(2).strip()
        stated[m.group(1)] = sorted(d.strip() for d in deps.split(",")) if deps != "—" else []
bad = 0
for name in sorted(set(actual) | set(stated)):
    if name not in stated:
        print(f"ARCHITECTURE.md: crate {name} is missing from the dependency table", file=sys.stderr); bad = 1
    elif name not in actual:
        print(f"ARCHITECTURE.md: the dependency table names {name}, which is not a workspace crate", file=sys.stderr); bad = 1
    elif stated[name] != actual[name]:
        print(f"ARCHITECTURE.md: {name} depends on {actual[name]}, the table says {stated[name]}", file=sys.stderr); bad = 1
# The chains at the top: `a → b → c` (backticked, possibly over two lines), each arrow a
# direct dependency of the right on the left.
intro = text.split("### Who depends on whom", 1)[0]
chains = re.findall(r"`([a-z0-9-]+(?:\s*→\s*[a-z0-9-]+)+)`", intro)
if not chains:
    print("ARCHITECTURE.md: no dependency chain `a → b` found at the top", file=sys.stderr); bad = 1
for chain in chains:
    names = [n.strip() for n in chain.split("→")]
    for a, b in zip(names, names[1:]):
        if b not in actual or a not in actual:
            print(f"ARCHITECTURE.md: the arrow {a} → {b} names a crate that is not in the workspace", file=sys.stderr); bad = 1
        elif a not in actual[b]:
            print(f"ARCHITECTURE.md: the arrow {a} → {b} says {b} depends on {a}, it does not", file=sys.stderr); bad = 1
if "physis-runtime` (the driver, depending on none of ours)" in intro and actual.get("physis-runtime"):
    print(f"ARCHITECTURE.md: physis-runtime is said to depend on none of ours, it depends on {actual['physis-runtime']}", file=sys.stderr); bad = 1
sys.exit(bad)
'; then
  missing=1
fi
# One integration-test binary per crate (see any tests/integration.rs): every file in a crate's
# tests/ folder must be a module of it, so a new test file cannot be silently left unbuilt.
for tests in crates/*/tests bench/tests examples/*/tests; do
  [ -d "$tests" ] || continue
  for file in "$tests"/*.rs; do
    [ -e "$file" ] || continue
    name=$(basename "$file" .rs)
    [ "$name" = integration ] && continue
    if ! grep -qx "mod $name;" "$tests/integration.rs" 2>/dev/null; then
      echo "$file is not declared in $tests/integration.rs (mod $name;), so it would never run" >&2
      missing=1
    fi
  done
done

exit $missing
