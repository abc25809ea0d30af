local function unique(xs)
  local seen, out = {}, {}
  for _, v in ipairs(xs) do
    if not seen[v] then
      seen[v] = true
      out[#out + 1] = v
    end
  end
  return out
end
local xs, ws = {}, {}
for i = 0, 199999 do
  xs[#xs + 1] = (i * 7919) % 5000
  ws[#ws + 1] = "k" .. ((i * 31) % 3000)
end
local total = 0
for r = 1, 5 do total = total + #unique(xs) + #unique(ws) end
print(total)
