#!/usr/bin/env bash
# Places the loop fast lane (`harn_vm::interp::hot::run`) in link/startup-order.txt so
# that it starts 32 bytes past a 64-byte boundary. The lane's speed depends on where it
# starts, with the same instructions: at a 64-byte boundary, `while` over 10M ints took
# 65 ms; at 16 or 32 bytes past one, 60 ms. Run it after benches/startup_order.sh.
#
# It builds harnc (release), reads where the lane landed and, when it starts at a
# 64-byte boundary or 48 bytes past one, moves its line right after the last function
# before it in the file whose end, rounded up to 16 bytes, lies 32 bytes past a
# boundary. Functions up to that one keep their addresses, so the lane then starts
# there; it rebuilds and checks. Not run by .ci/run.
#   benches/place_lane.sh          build, place, rebuild, check
#   benches/place_lane.sh --check  only say where the lane starts in target/release/harnc
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = "--check" ] || cargo build --release --quiet
place() {
    python3 - "$1" <<'PY'
import subprocess, sys
mode = sys.argv[1]
binary, path = "target/release/harnc", "link/startup-order.txt"
symbols = {}
for line in subprocess.run(["nm", "-S", "--defined-only", binary],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 4 and parts[2] in "tT":
        # Local symbols can share a name; such a name is not used to place the lane.
        symbols[parts[3]] = None if parts[3] in symbols else (int(parts[0], 16), int(parts[1], 16))
order = [line.rstrip("\n") for line in open(path)]
lane = [i for i, name in enumerate(order) if name.startswith("_ZN7harn_vm6interp3hot3run17")]
if len(lane) != 1 or not symbols.get(order[lane[0]]):
    sys.exit(f"the lane is not listed once in {path}, or not in {binary}")
at = symbols[order[lane[0]]][0]
print(f"hot::run starts at {at:#x}, {at % 64} bytes past a 64-byte boundary")
if at % 64 in (16, 32) or mode == "check":
    sys.exit(0 if at % 64 in (16, 32) or mode == "check" else 1)
if mode == "verify":
    sys.exit("the lane did not land where it was placed")
for i in range(lane[0] - 1, -1, -1):
    known = symbols.get(order[i])
    if known:
        start, size = known
        end = (start + size + 15) // 16 * 16
        if end % 64 == 32 and end <= at:
            name = order.pop(lane[0])
            order.insert(i + 1, name)
            open(path, "w").write("\n".join(order) + "\n")
            print(f"moved it after line {i + 1} of {path}: it should start at {end:#x}")
            sys.exit(3)
sys.exit("no function before the lane ends 32 bytes past a boundary")
PY
}
if [ "${1:-}" = "--check" ]; then
    place check
    exit
fi
status=0
place move || status=$?
if [ "$status" -eq 3 ]; then
    cargo build --release --quiet
    place verify
elif [ "$status" -ne 0 ]; then
    exit "$status"
fi
