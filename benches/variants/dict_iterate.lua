local d = {}
for i = 0, 50000 - 1 do d["key" .. i] = i end
local s = 0
for round = 0, 4 do
  for key, value in pairs(d) do if value % 2 == 0 then s = s + value end end
end
local keys = {}
for k in pairs(d) do keys[#keys + 1] = k end
table.sort(keys)
local n = 0
for _, k in ipairs(keys) do n = n + #k end
print(s .. " " .. n)
