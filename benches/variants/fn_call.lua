local function sq(x) return x * x + 1 end
local total = 0
for i = 0, 3000000 - 1 do
  total = total + sq(i % 100)
end
print(total)
