local xs = {}
for i = 0, 1000000 - 1 do xs[#xs + 1] = i end
local k = 3
local mapped = {}
for _, x in ipairs(xs) do mapped[#mapped + 1] = x * k end
local kept = {}
for _, x in ipairs(mapped) do if x % 2 == 0 then kept[#kept + 1] = x end end
local total = 0
for _, x in ipairs(kept) do total = total + x end
print(total)
