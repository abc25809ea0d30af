local orders = {}
for i = 0, 59999 do
  orders[#orders + 1] = {id = i, customer = "c" .. (i % 40), amount = (i * 13) % 997}
end
local by_customer = {}
local largest = 0
for _, o in ipairs(orders) do
  local c = o.customer
  if by_customer[c] == nil then by_customer[c] = {} end
  local list = by_customer[c]
  list[#list + 1] = o.amount
  largest = math.max(largest, #by_customer[c])
end
local total, groups = 0, 0
for _, list in pairs(by_customer) do
  groups = groups + 1
  for _, v in ipairs(list) do total = total + v end
end
print(groups .. " " .. largest .. " " .. total)
