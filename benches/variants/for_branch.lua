local total = 0
for i = 0, 5000000 - 1 do
  if i % 3 == 0 then total = total + i else total = total - 1 end
end
print(total)
