local out = {}
for i = 0, 100000 - 1 do
  local name = "user" .. i
  out[#out + 1] = string.upper(name) .. ":" .. tostring(i * 3)
end
local csv = table.concat(out, ",")
local parts = {}
for p in string.gmatch(csv, "[^,]+") do parts[#parts + 1] = p end
print(#csv .. " " .. #parts .. " " .. parts[501])
