local function append(xs, x) xs[#xs + 1] = x return xs end
local xs = {}
for i = 0, 100000 - 1 do xs = append(xs, i * 2) end
local doubled = {}
for _, x in ipairs(xs) do doubled[#doubled + 1] = x + 1 end
local report = {count = 0, items = {}}
for _, x in ipairs(doubled) do report.items[#report.items + 1] = x end
local groups = {}
for _, x in ipairs(xs) do
  local k = "g" .. (x % 7)
  local g = groups[k] or {}
  g[#g + 1] = x
  groups[k] = g
end
print(#report.items .. " " .. #groups["g0"])
