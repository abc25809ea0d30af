local point = {x = 3, y = 4, z = 5}
local total = 0
for i = 0, 2000000 - 1 do
  total = total + point.x * point.y + point.z
end
print(total)
