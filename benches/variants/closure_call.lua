local k = 7
local f = function(x) return x * k + 1 end
local total = 0
for i = 0, 1000000 - 1 do
  total = total + f(i % 1000)
end
print(total)
