local is_odd
local function is_even(n)
  if n == 0 then return true end
  return is_odd(n - 1)
end
is_odd = function(n)
  if n == 0 then return false end
  return is_even(n - 1)
end
local count = 0
for i = 0, 99999 do
  if is_even(i % 40) then count = count + 1 end
end
print(count)
