xs = []
for i in range(200000):
    xs.append(len(xs) + i)
ys = []
for x in range(200000):
    ys.append(len(ys) + x)
words = ["w%d" % (i % 1000) for i in range(200000)]
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1
print(xs[199999], ys[199999], counts["w7"])
