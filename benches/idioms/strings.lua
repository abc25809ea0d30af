local parts = {}
for i = 0, 100000 - 1 do
  parts[#parts + 1] = string.format("row %d: %d", i, i * 2)
end
local text = table.concat(parts, "\n")
print(#text)
