local function make(d)
  if d == 0 then return {false, false} end
  return {make(d - 1), make(d - 1)}
end
local function check(t)
  if not t[1] then return 1 end
  return 1 + check(t[1]) + check(t[2])
end
local total = 0
for i = 0, 19 do total = total + check(make(14)) end
print(total)
