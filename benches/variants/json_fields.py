import json
items = [{"id": i, "tags": ["x", "y"], "price": i * 0.5, "name": f"p{i}"} for i in range(20000)]
text = json.dumps({"items": items})
doc = json.loads(text)
total = 0.0
tags = 0
for it in doc["items"]:
    total += it["price"]
    tags += len(it["tags"])
print(f"{total} {tags}")
