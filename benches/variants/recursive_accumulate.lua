local function pushed(n, acc)
  if n == 0 then return acc end
  acc[#acc + 1] = n % 10
  return pushed(n - 1, acc)
end
local function sum(t) local s = 0 for _, v in ipairs(t) do s = s + v end return s end
local total = 0
for r = 0, 4 do
  total = total + sum(pushed(40000, {})) + sum(pushed(40000, {})) + sum(pushed(40000, {}))
end
print(total)
