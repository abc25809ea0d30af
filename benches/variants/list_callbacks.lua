local xs = {}
for i = 0, 300000 - 1 do xs[#xs + 1] = i end
local total = 0
for _, x in ipairs(xs) do total = total + x end
local big = false
for _, x in ipairs(xs) do if x > 299998 then big = true break end end
local all_pos = true
for _, x in ipairs(xs) do if not (x >= 0) then all_pos = false break end end
local found = nil
for _, x in ipairs(xs) do if x == 150000 then found = x break end end
print(total .. " " .. tostring(big) .. " " .. tostring(all_pos) .. " " .. found)
