local xs = {}
for i = 0, 199999 do xs[#xs + 1] = #xs + i end
local ys = {}
for x = 0, 199999 do ys[#ys + 1] = #ys + x end
local counts = {}
for i = 0, 199999 do
  local w = "w" .. (i % 1000)
  counts[w] = (counts[w] or 0) + 1
end
print(xs[200000] .. " " .. ys[200000] .. " " .. counts["w7"])
