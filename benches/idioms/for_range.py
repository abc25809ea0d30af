total = 0
for i in range(10000000):
    total = total + i
print(total)
