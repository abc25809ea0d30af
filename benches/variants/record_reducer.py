def step(state, x):
    state["items"].append(x * 2)
    return {"total": state["total"] + x, "items": state["items"]}
st = {"total": 0, "items": []}
for i in range(100000):
    st = step(st, i)
folded = {"n": 0, "seen": []}
for x in range(100000):
    folded["seen"].append(x % 7)
    folded = {"n": folded["n"] + 1, "seen": folded["seen"]}
print(st["total"], len(st["items"]), folded["n"], len(folded["seen"]))
