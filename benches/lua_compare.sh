#!/usr/bin/env bash
# Side by side: each idiom of benches/idioms/ run as a whole process by harnc (release),
# Lua 5.4 and CPython 3 in one invocation; prints the median of RUNS runs (default 5) and
# the ratio of harnc to Lua (to CPython for JSON, which Lua lacks). Needs `lua5.4`
# (Debian package lua5.4); a missing peer is shown as "-". Not run by .ci/run.
#   benches/lua_compare.sh [RUNS]
# HARNC=path/to/harnc compares another build (no cargo build then).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${HARNC:-}" ] || cargo build --release --quiet
exec python3 - "${1:-5}" <<'PY'
import os, shutil, statistics, subprocess, sys, time

runs = int(sys.argv[1])
root = "benches/idioms"
peers = {"harnc": [os.environ.get("HARNC","./target/release/harnc"), "run"], "lua": ["lua5.4"], "python": ["python3"]}
ext = {"harnc": ".harn", "lua": ".lua", "python": ".py"}

def median_seconds(cmd):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)

idioms = sorted({f.rsplit(".", 1)[0] for f in os.listdir(root)})
print(f"{'idiom':16} {'harnc':>9} {'lua5.4':>9} {'python3':>9}  ratio (median of {runs})")
for idiom in idioms:
    t = {}
    for peer, cmd in peers.items():
        path = os.path.join(root, idiom + ext[peer])
        if os.path.exists(path) and shutil.which(cmd[0]) or (peer == "harnc" and os.path.exists(path)):
            t[peer] = median_seconds(cmd + [path])
    base, name = (t.get("lua"), "lua") if "lua" in t else (t.get("python"), "python")
    ratio = f"{t['harnc'] / base:.2f}x {name}" if base and "harnc" in t else "-"
    cell = lambda p: f"{t[p] * 1000:8.1f}ms" if p in t else f"{'-':>9}"
    print(f"{idiom:16} {cell('harnc')} {cell('lua')} {cell('python')}  {ratio}")
PY
