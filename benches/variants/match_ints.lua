local total = 0
for i = 0, 1999999 do
  local k = i % 5
  local v
  if k == 0 then v = 10 elseif k == 1 then v = 20 elseif k == 2 then v = 30 else v = 1 end
  total = total + v
end
print(total)
