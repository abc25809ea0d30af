local text = string.rep("The Quick brown fox, 42 jumps; over the lazy dog 7 times! ", 15000)
local vowels, letters, digits, other = 0, 0, 0, 0
for c in text:gmatch(".") do
  if c == "a" or c == "e" or c == "i" or c == "o" or c == "u" then vowels = vowels + 1 end
  if c >= "a" and c <= "z" or c >= "A" and c <= "Z" then
    letters = letters + 1
  elseif c >= "0" and c <= "9" then
    digits = digits + 1
  elseif c ~= " " and not (c == ",") then
    other = other + 1
  end
end
print(vowels .. " " .. letters .. " " .. digits .. " " .. other)
