#!/usr/bin/env bash
# Regenerates link/startup-order.txt, the order in which the linker lays out the
# functions a short `harnc run` executes (build.rs passes it to LLD as
# --symbol-ordering-file). Each page of code a run touches costs a page fault, and
# without an order the start-up path is spread over about 60 of the binary's 64 KB
# fault-around windows; laid out together it fits in a few.
#
# Runs the release build under callgrind over the start-up snippet, the hello example
# and every program of tests/data/run, and lists each function of the harnc binary they
# execute: first those the start-up snippet runs, then the rest by how many programs run
# them. Names are mangled with a hash that stays the same while a function's path and
# crate do; a name that no longer exists is skipped by the linker, so a stale file costs
# only its benefit. Regenerate after large changes (and when the count this prints of
# names missing from the binary grows). Not run by .ci/run. Needs valgrind.
#   benches/startup_order.sh
# HARNC=path/to/harnc uses another build (no cargo build then).
# Then run benches/place_lane.sh: where the loop fast lane starts changes its speed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${HARNC:-}" ] || cargo build --release --quiet
exec python3 - <<'PY'
import collections, glob, os, re, subprocess, tempfile

harnc = os.path.abspath(os.environ.get("HARNC", "./target/release/harnc"))
first = ["benches/idioms/startup.harn", "examples/hello.harn"]
rest = sorted(glob.glob("tests/data/run/*.harn"))

def executed(program):
    """The mangled names of the harnc functions one run of `program` executes."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out.name}",
             harnc, "run", program],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=os.path.dirname(program) or ".",
        )
        objects, functions, names = {}, {}, []
        current = None
        for line in open(out.name, errors="replace"):
            m = re.match(r"(c?ob)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if m:
                if m.group(3):
                    objects[m.group(2)] = m.group(3)
                if m.group(1) == "ob":
                    current = objects.get(m.group(2), "")
                continue
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if m:
                if m.group(3):
                    functions[m.group(2)] = m.group(3)
                if m.group(1) == "fn" and current and os.path.basename(current) == os.path.basename(harnc):
                    # callgrind marks a recursive activation with a 'N suffix.
                    names.append(functions.get(m.group(2), "").split("'")[0])
        return [n for n in dict.fromkeys(names) if n]

order = []
for program in first:
    order += executed(os.path.abspath(program))
counts = collections.Counter()
for program in rest:
    counts.update(set(executed(os.path.abspath(program))))
order += [name for name, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
order = list(dict.fromkeys(order))
os.makedirs("link", exist_ok=True)
with open("link/startup-order.txt", "w") as f:
    f.write("\n".join(order) + "\n")
symbols = set(subprocess.run(["nm", "--defined-only", harnc], capture_output=True, text=True).stdout.split())
missing = sum(1 for name in order if name not in symbols)
print(f"link/startup-order.txt: {len(order)} functions ({missing} not in {harnc})")
PY
