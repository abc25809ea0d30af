words = ["w%d" % (i % 1000) for i in range(200000)]
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1
sums = []
for x in range(200000):
    sums.append(len(sums) + x)
print(len(counts), counts["w7"], sums[199999])
