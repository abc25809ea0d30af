parts = []
for i in range(100000):
    parts.append(f"row {i}: {i * 2}")
text = "\n".join(parts)
print(len(text))
