local xs = {}
for i = 0, 1000000 - 1 do xs[#xs + 1] = i end
local total = 0
local i = 1
while i <= #xs do
  total = total + xs[i]
  i = i + 1
end
print(total)
