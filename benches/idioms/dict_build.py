d = {}
for i in range(200000):
    d[f"k{i}"] = i
kept = []
for key, value in d.items():
    if value % 3 == 0:
        kept.append(key)
print(len(kept))
