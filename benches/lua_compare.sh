#!/usr/bin/env bash
# Runs the hot-loop and fib programs on harnc (release) and Lua 5.4 in the same run and
# prints the ratio. Needs `lua5.4` (Debian package lua5.4).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tmp=$(mktemp -d)
cat > "$tmp/loop.harn" <<'H'
var i = 0
var sum = 0
while i < 10000000 {
  sum = sum + i
  i = i + 1
}
log(sum)
H
cat > "$tmp/loop.lua" <<'L'
local i = 0
local sum = 0
while i < 10000000 do
  sum = sum + i
  i = i + 1
end
print(sum)
L
cat > "$tmp/fib.harn" <<'H'
fn fib(n) {
  if n < 2 { return n }
  return fib(n - 1) + fib(n - 2)
}
log(fib(27))
H
cat > "$tmp/fib.lua" <<'L'
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
print(fib(27))
L
# fib(30): ten times the calls, so process start-up (harnc ~3 ms, Lua ~1 ms) weighs less.
sed 's/fib(27)/fib(30)/' "$tmp/fib.harn" > "$tmp/fib30.harn"
sed 's/fib(27)/fib(30)/' "$tmp/fib.lua" > "$tmp/fib30.lua"
best() { # best of 5 wall-clock seconds
  local best=999
  for _ in 1 2 3 4 5; do
    local s e t
    s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    best=$(echo "if ($t < $best) $t else $best" | bc -l)
  done
  echo "$best"
}
for prog in loop fib fib30; do
  h=$(best ./target/release/harnc run "$tmp/$prog.harn")
  l=$(best lua5.4 "$tmp/$prog.lua")
  printf '%-6s harnc %.3fs  lua5.4 %.3fs  ratio %.2fx\n' "$prog" "$h" "$l" "$(echo "$h / $l" | bc -l)"
done
rm -rf "$tmp"
