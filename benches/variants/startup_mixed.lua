local text = "the quick brown fox jumps over the lazy dog"
local words = {}
for w in string.gmatch(text, "%S+") do words[#words + 1] = w end
local counts = {}
for _, w in ipairs(words) do counts[w] = (counts[w] or 0) + 1 end
local sorted = {}
for i, w in ipairs(words) do sorted[i] = w end
table.sort(sorted, function(a, b) return #a > #b end)
local longest = sorted[1]
local up = {}
for i, w in ipairs(words) do up[i] = string.upper(w) end
local shout = table.concat(up, "-")
local doc = {a = {1, 2, 3}, b = {c = true}}
local total = 0
for _, x in ipairs(doc.a) do total = total + x end
local function grade(n)
  if n == 0 then return "none" elseif n == 1 then return "one" else return "many" end
end
local parts = {}
for k, v in pairs(counts) do parts[#parts + 1] = k .. "=" .. grade(v) end
local ok, e = pcall(function() error("boom") end)
local r = "caught " .. tostring(e)
print(longest, shout, total)
print(table.concat(parts, ","), r, (string.gsub(text, "dog", "cat")))
