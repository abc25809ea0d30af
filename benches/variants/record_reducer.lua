local function step(state, x)
  local items = state.items
  items[#items + 1] = x * 2
  return {total = state.total + x, items = items}
end
local st = {total = 0, items = {}}
for i = 0, 99999 do st = step(st, i) end
local folded = {n = 0, seen = {}}
for x = 0, 99999 do
  local seen = folded.seen
  seen[#seen + 1] = x % 7
  folded = {n = folded.n + 1, seen = seen}
end
print(st.total .. " " .. #st.items .. " " .. folded.n .. " " .. #folded.seen)
