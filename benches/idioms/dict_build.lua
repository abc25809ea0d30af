local d = {}
for i = 0, 200000 - 1 do
  d["k" .. i] = i
end
local kept = {}
for key, value in pairs(d) do
  if value % 3 == 0 then kept[#kept + 1] = key end
end
print(#kept)
