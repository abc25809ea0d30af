local k = 3
local total = 0
local ys = {}
for x = 0, 1000000 - 1 do ys[#ys+1] = x * k end
local zs = {}
for _, y in ipairs(ys) do if y % 2 == 0 then zs[#zs+1] = y end end
for _, z in ipairs(zs) do total = total + z end
print(total)
