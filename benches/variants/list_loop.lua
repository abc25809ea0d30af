local xs = {}
for i = 0, 1000000 - 1 do xs[#xs + 1] = i % 1000 end
local total = 0
for round = 0, 4 do
  for _, x in ipairs(xs) do total = total + x end
end
print(total)
