local s = string.rep("abcdefghij", 20000)
local n = 0
for i = 1, #s do
  if s:sub(i, i) == "e" then n = n + 1 end
end
print(n)
