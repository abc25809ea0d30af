local people = {}
for i = 0, 49999 do
  people[#people + 1] = {name = "p" .. i, age = (i * 37) % 90, city = "c" .. (i % 50)}
end
local sorted = {}
for i, p in ipairs(people) do sorted[i] = p end
table.sort(sorted, function(a, b) return a.age < b.age end)
local by_city = {}
local ncity = 0
for _, p in ipairs(people) do
  local list = by_city[p.city]
  if list == nil then list = {}; by_city[p.city] = list; ncity = ncity + 1 end
  list[#list + 1] = p.name
end
local total = 0
for k, v in pairs(by_city) do total = total + #v end
local oldest = sorted[#sorted]
print(total .. " " .. oldest.age .. " " .. ncity)
