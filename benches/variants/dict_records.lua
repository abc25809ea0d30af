local rows = {}
for i = 0, 200000 - 1 do
  rows[#rows + 1] = {id = i, score = i % 97, name = "n" .. (i % 10)}
end
local total, best = 0, 0
for _, r in ipairs(rows) do
  total = total + r.score
  if r.score > best then best = r.score end
end
local byname = {}
for _, r in ipairs(rows) do
  byname[r.name] = (byname[r.name] or 0) + r.score
end
print(total .. " " .. best .. " " .. byname["n3"])
