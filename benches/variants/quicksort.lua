local function qsort(xs)
  if #xs <= 1 then return xs end
  local p = xs[1]
  local lo, hi = {}, {}
  for i = 2, #xs do
    local x = xs[i]
    if x < p then lo[#lo + 1] = x else hi[#hi + 1] = x end
  end
  local a = qsort(lo)
  local b = qsort(hi)
  local out = {}
  for _, v in ipairs(a) do out[#out + 1] = v end
  out[#out + 1] = p
  for _, v in ipairs(b) do out[#out + 1] = v end
  return out
end
local xs = {}
for i = 0, 100000 - 1 do xs[#xs + 1] = (i * 7919) % 100003 end
local s = qsort(xs)
print(s[1] .. " " .. s[#s] .. " " .. #s)
