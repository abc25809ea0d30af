local xs = {}
for i = 0, 500000 - 1 do xs[#xs + 1] = i end
local evens = {}
for _, x in ipairs(xs) do if x % 2 == 0 then evens[#evens + 1] = x end end
local mapped = {}
for _, x in ipairs(evens) do mapped[#mapped + 1] = x + 1 end
local total = 0
for _, x in ipairs(mapped) do total = total + x end
local big = false
for _, x in ipairs(xs) do if x > 499998 then big = true break end end
local all_pos = true
for _, x in ipairs(xs) do if not (x >= 0) then all_pos = false break end end
print(total .. " " .. tostring(big) .. " " .. tostring(all_pos))
