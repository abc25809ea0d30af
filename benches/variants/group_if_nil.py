orders = []
for i in range(60000):
    orders.append({"id": i, "customer": f"c{i % 40}", "amount": (i * 13) % 997})
by_customer = {}
largest = 0
for o in orders:
    c = o["customer"]
    if c not in by_customer:
        by_customer[c] = []
    by_customer[c].append(o["amount"])
    largest = max(largest, len(by_customer[c]))
total = 0
for key, value in by_customer.items():
    total += sum(value)
print(f"{len(by_customer)} {largest} {total}")
