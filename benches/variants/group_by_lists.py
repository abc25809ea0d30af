people = []
for i in range(50000):
    people.append({"name": f"p{i}", "age": (i * 37) % 90, "city": f"c{i % 50}"})
ordered = sorted(people, key=lambda p: p["age"])
by_city = {}
for p in people:
    by_city.setdefault(p["city"], []).append(p["name"])
total = 0
for key, value in by_city.items():
    total = total + len(value)
oldest = ordered[len(ordered) - 1]
print(f"{total} {oldest['age']} {len(by_city)}")
