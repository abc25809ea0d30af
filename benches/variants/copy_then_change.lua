local function add_item(cart, item)
  local c = cart
  c.items[#c.items + 1] = item
  c.total = c.total + item.price
  return c
end
local cart = {items = {}, total = 0}
for i = 0, 99999 do cart = add_item(cart, {price = i % 10}) end
print(cart.total .. " " .. #cart.items)
