local count = 0
for i = 0, 1999 do
  for j = 0, 1999 do
    if (i + j) % 7 == 0 then count = count + 1 end
  end
end
print(count)
