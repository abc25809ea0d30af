local pts = {}
for i = 0, 99999 do pts[#pts+1] = {x=i, y=i*2} end
local sx, sy = 0, 0
for r = 1, 10 do
  for _, p in ipairs(pts) do sx = sx + p.x; sy = sy + p.y end
end
print(sx .. " " .. sy)
