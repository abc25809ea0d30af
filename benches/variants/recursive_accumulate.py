import sys
sys.setrecursionlimit(200000)
def pushed(n, acc):
    if n == 0:
        return acc
    acc.append(n % 10)
    return pushed(n - 1, acc)
def added(n, acc):
    if n == 0:
        return acc
    acc += [n % 10]
    return added(n - 1, acc)
def spread(n, acc):
    if n == 0:
        return acc
    acc.append(n % 10)
    return spread(n - 1, acc)
total = 0
for r in range(5):
    total += sum(pushed(40000, [])) + sum(added(40000, [])) + sum(spread(40000, []))
print(total)
