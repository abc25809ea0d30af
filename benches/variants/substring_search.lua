local rows = {}
for i = 0, 1999 do
  rows[#rows + 1] = {name = "user-" .. i .. "@example.org", note = "status=active; plan=" .. (i % 3) .. "; seen=" .. i}
end
local hits, total = 0, 0
for round = 0, 39 do
  local found = {}
  for _, r in ipairs(rows) do
    if r.name:find("7@", 1, true) or r.note:find("plan=2", 1, true) then found[#found + 1] = r end
  end
  hits = hits + #found
  for _, r in ipairs(found) do
    local note = r.note:gsub("active", "idle")
    total = total + (note:find("seen=", 1, true) - 1) + (r.name:find("@", 1, true) - 1)
  end
end
print(hits .. " " .. total)
