local rows = {}
for i = 0, 200000 - 1 do
  rows[#rows + 1] = {id = i, score = (i * 7919) % 10007}
end
table.sort(rows, function(a, b) return a.score < b.score end)
print(rows[1].id)
print(rows[#rows].score)
