local total = 0
for r = 0, 19 do
  local a, b = {}, {}
  for i = 0, 19999 do a[(i * 7) % 15000] = true end
  for i = 0, 19999 do b[(i * 11 + r) % 15000] = true end
  local u, n, d = 0, 0, 0
  for k in pairs(a) do
    u = u + 1
    if b[k] then n = n + 1 else d = d + 1 end
  end
  for k in pairs(b) do
    if not a[k] then u = u + 1 end
  end
  total = total + u + n + d
end
print(total)
