local function ack(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end
local t = 0
for k = 0, 59 do t = t + ack(2, 200) end
print(t)
