local parts = {}
local length = 0
local lines = 0
while length < 1500000 do
  local piece = "entry " .. lines .. ": value " .. (lines * 7) .. "\n"
  parts[#parts + 1] = piece
  length = length + #piece
  lines = lines + 1
end
local text = table.concat(parts)
print(lines .. " " .. #text)
