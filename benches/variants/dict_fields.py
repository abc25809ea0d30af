point = {"x": 3, "y": 4, "z": 5}
total = 0
for i in range(2000000):
    total = total + point["x"] * point["y"] + point["z"]
print(total)
