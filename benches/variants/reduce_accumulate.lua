local words = {}
for i = 0, 199999 do words[#words + 1] = "w" .. (i % 1000) end
local counts, n = {}, 0
for _, w in ipairs(words) do
  if counts[w] == nil then n = n + 1 end
  counts[w] = (counts[w] or 0) + 1
end
local sums = {}
for x = 0, 199999 do sums[#sums + 1] = #sums + x end
print(n .. " " .. counts["w7"] .. " " .. sums[200000])
