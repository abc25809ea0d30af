local seen = {}
local dups = 0
for i = 0, 49999 do
  local v = (i * 7919) % 30000
  if seen[v] then dups = dups + 1 else seen[v] = true end
end
print(dups)
