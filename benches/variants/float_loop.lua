local acc = 0.0
for i = 1, 3000000 do
  acc = acc + 1.0 / i
end
print(acc)
