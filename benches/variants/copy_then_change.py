def add_item(cart, item):
    c = cart
    c["items"].append(item)
    c["total"] = c["total"] + item["price"]
    return c
cart = {"items": [], "total": 0}
for i in range(100000):
    cart = add_item(cart, {"price": i % 10})
print(cart["total"], len(cart["items"]))
