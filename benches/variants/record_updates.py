import math
bodies = []
for i in range(5):
    bodies.append({"x": i * 1.0, "y": i * 2.0, "z": i * 0.5, "vx": 0.1 * i, "vy": 0.2, "vz": -0.1 * i, "m": 1.0 + i})
def advance(bs, dt):
    n = len(bs)
    for i in range(n):
        for j in range(i + 1, n):
            a = bs[i]
            b = bs[j]
            dx = a["x"] - b["x"]
            dy = a["y"] - b["y"]
            dz = a["z"] - b["z"]
            d2 = dx * dx + dy * dy + dz * dz + 0.01
            mag = dt / (d2 * math.sqrt(d2))
            a["vx"] = a["vx"] - dx * b["m"] * mag
            a["vy"] = a["vy"] - dy * b["m"] * mag
            a["vz"] = a["vz"] - dz * b["m"] * mag
            b["vx"] = b["vx"] + dx * a["m"] * mag
            b["vy"] = b["vy"] + dy * a["m"] * mag
            b["vz"] = b["vz"] + dz * a["m"] * mag
    for b in bs:
        b["x"] = b["x"] + dt * b["vx"]
        b["y"] = b["y"] + dt * b["vy"]
        b["z"] = b["z"] + dt * b["vz"]
for s in range(20000):
    advance(bodies, 0.01)
print(bodies[0]["x"])
