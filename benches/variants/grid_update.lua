local grid = {}
for i = 0, 299 do
  local row = {}
  for j = 0, 299 do row[#row + 1] = 0 end
  grid[#grid + 1] = row
end
for r = 0, 9 do
  for i = 0, 299 do
    for j = 0, 299 do
      grid[i + 1][j + 1] = grid[i + 1][j + 1] + i + j
    end
  end
end
print(grid[300][300])
