local xs = {}
for i = 0, 300000 - 1 do xs[#xs + 1] = (i * 7919) % 100003 end
table.sort(xs)
local words = {}
for i = 0, 100000 - 1 do words[#words + 1] = "w" .. ((i * 31) % 5000) end
table.sort(words)
print(xs[1] .. " " .. xs[#xs] .. " " .. words[1] .. " " .. words[#words])
