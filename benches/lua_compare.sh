#!/usr/bin/env bash
# Side by side: each idiom of benches/idioms/ (or of DIR: benches/variants/ holds other
# programs of the same idioms, to catch slow paths the main ones miss) run as a whole
# process by harnc (release),
# Lua 5.4 and CPython 3 in one invocation, taking turns within each round; prints the
# median of RUNS runs (default 5) and the ratio of harnc to Lua and to CPython, by median
# and by fastest run. Needs `lua5.4`
# (Debian package lua5.4); a missing peer is shown as "-". Not run by .ci/run.
#   benches/lua_compare.sh [RUNS] [DIR]
# HARNC=path/to/harnc compares another build (no cargo build then).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${HARNC:-}" ] || cargo build --release --quiet
exec python3 - "${1:-5}" "${2:-benches/idioms}" <<'PY'
import os, shutil, statistics, subprocess, sys, time

runs = int(sys.argv[1])
root = sys.argv[2]
peers = {"harnc": [os.environ.get("HARNC","./target/release/harnc"), "run"], "lua": ["lua5.4"], "python": ["python3"]}
ext = {"harnc": ".harn", "lua": ".lua", "python": ".py"}

def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start

idioms = sorted({f.rsplit(".", 1)[0] for f in os.listdir(root) if f.endswith(".harn")})
print(f"{'idiom':16} {'harnc':>9} {'lua5.4':>9} {'python3':>9}  ratio (median of {runs}; min)")
for idiom in idioms:
    cmds = {}
    for peer, cmd in peers.items():
        path = os.path.join(root, idiom + ext[peer])
        if os.path.exists(path) and (shutil.which(cmd[0]) or peer == "harnc"):
            cmds[peer] = cmd + [path]
    # The peers take turns within each round, so a slow spell of a shared machine
    # falls on all of them rather than on one.
    times = {peer: [] for peer in cmds}
    for _ in range(runs):
        for peer, cmd in cmds.items():
            times[peer].append(timed(cmd))
    t = {peer: statistics.median(ts) for peer, ts in times.items()}
    low = {peer: min(ts) for peer, ts in times.items()}
    # Against each peer that ran it (the dict and JSON targets are against CPython).
    ratio = "; ".join(
        f"{t['harnc'] / t[p]:.2f}x {p} (min {low['harnc'] / low[p]:.2f}x)"
        for p in ("lua", "python") if p in t and "harnc" in t
    ) or "-"
    cell = lambda p: f"{t[p] * 1000:8.1f}ms" if p in t else f"{'-':>9}"
    print(f"{idiom:16} {cell('harnc')} {cell('lua')} {cell('python')}  {ratio}")
PY
