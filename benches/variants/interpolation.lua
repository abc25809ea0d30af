local n = 0
for i = 0, 200000 - 1 do
  local s = "item-" .. i .. "-" .. (i % 7)
  n = n + #s
end
print(n)
