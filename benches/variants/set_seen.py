seen = set()
dups = 0
for i in range(50000):
    v = (i * 7919) % 30000
    if v in seen:
        dups = dups + 1
    else:
        seen.add(v)
print(dups)
