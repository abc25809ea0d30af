import json
items = [{"name": "alpha", "size": 3}, {"name": "beta", "size": 5}, {"name": "gamma", "size": 8}]
total = 0
for item in items:
    total = total + item["size"]
names = [i["name"] for i in items]
big = [i for i in items if i["size"] > 4]
def describe(item):
    return f"{item['name']} ({item['size']})"
lines = [describe(i) for i in big]
if total > 10:
    print("large")
print(json.dumps({"total": total, "names": names, "big": lines}))
