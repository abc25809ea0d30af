import json
items = []
for i in range(8000):
    items.append({"id": i, "name": f"item {i}", "tags": ["a", "b", "c"], "price": i * 1.5, "ok": i % 2 == 0})
text = json.dumps({"items": items}, separators=(",", ":"))
size = 0
for _ in range(10):
    doc = json.loads(text)
    size = len(json.dumps(doc, separators=(",", ":")))
print(size)
