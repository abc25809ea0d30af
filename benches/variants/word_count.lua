local words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
local counts = {}
for i = 0, 400000 - 1 do
  local w = words[(i % 8) + 1]
  counts[w] = (counts[w] or 0) + 1
end
print(counts["gamma"])
