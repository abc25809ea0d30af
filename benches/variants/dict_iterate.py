d = {}
for i in range(50000):
    d[f"key{i}"] = i
s = 0
for _ in range(5):
    for key, value in d.items():
        if value % 2 == 0:
            s = s + value
n = 0
for k in d.keys():
    n = n + len(k)
print(f"{s} {n}")
