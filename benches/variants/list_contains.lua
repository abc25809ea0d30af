local allowed = {"read", "list", "search", "get", "describe"}
local ops = {"read", "write", "list", "delete", "search", "get", "put", "describe"}
local function contains(t, v) for _, x in ipairs(t) do if x == v then return true end end return false end
local hits = 0
for i = 0, 300000 - 1 do
  local op = ops[(i % 8) + 1]
  if contains(allowed, op) then hits = hits + 1 end
  if contains(allowed, op) then hits = hits + 1 end
end
print(hits)
