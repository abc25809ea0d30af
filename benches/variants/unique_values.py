xs = []
ws = []
for i in range(200000):
    xs.append((i * 7919) % 5000)
    ws.append(f"k{(i * 31) % 3000}")
total = 0
for r in range(5):
    total += len(list(dict.fromkeys(xs))) + len(list(dict.fromkeys(ws)))
print(total)
