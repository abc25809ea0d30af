local n = 0
for i = 0, 100000 - 1 do
  local s = "Item-" .. i .. "-Value"
  local parts = {}
  for p in string.gmatch(s, "[^-]+") do parts[#parts + 1] = p end
  local up = string.upper(parts[1])
  if string.find(up, "ITEM", 1, true) and string.sub(s, 1, 4) == "Item" then n = n + #parts[2] end
end
print(n)
