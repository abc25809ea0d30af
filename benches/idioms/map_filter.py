xs = []
for i in range(1000000):
    xs.append(i)
k = 3
print(sum(filter(lambda x: x % 2 == 0, map(lambda x: x * k, xs))))
