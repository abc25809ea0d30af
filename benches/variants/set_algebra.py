total = 0
for r in range(20):
    a = set((i * 7) % 15000 for i in range(20000))
    b = set((i * 11 + r) % 15000 for i in range(20000))
    total += len(a | b) + len(a & b) + len(a - b)
print(total)
