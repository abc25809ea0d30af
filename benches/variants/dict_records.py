rows = []
for i in range(200000):
    rows.append({"id": i, "score": i % 97, "name": f"n{i % 10}"})
total = 0
best = 0
for r in rows:
    total = total + r["score"]
    if r["score"] > best:
        best = r["score"]
byname = {}
for r in rows:
    byname[r["name"]] = byname.get(r["name"], 0) + r["score"]
print(f"{total} {best} {byname['n3']}")
