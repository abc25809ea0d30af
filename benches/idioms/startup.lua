local items = {
  {name = "alpha", size = 3},
  {name = "beta", size = 5},
  {name = "gamma", size = 8},
}
local total = 0
for _, item in ipairs(items) do
  total = total + item.size
end
local names = {}
for _, i in ipairs(items) do names[#names + 1] = i.name end
local big = {}
for _, i in ipairs(items) do if i.size > 4 then big[#big + 1] = i end end
local function describe(item)
  return item.name .. " (" .. item.size .. ")"
end
local lines = {}
for _, i in ipairs(big) do lines[#lines + 1] = describe(i) end
if total > 10 then print("large") end
print(total, table.concat(names, ","), table.concat(lines, ","))
