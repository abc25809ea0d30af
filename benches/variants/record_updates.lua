local bodies = {}
for i = 0, 4 do
  bodies[#bodies+1] = {x=i*1.0, y=i*2.0, z=i*0.5, vx=0.1*i, vy=0.2, vz=-0.1*i, m=1.0+i}
end
local function advance(bs, dt)
  local n = #bs
  for i = 1, n do
    local a = bs[i]
    for j = i+1, n do
      local b = bs[j]
      local dx, dy, dz = a.x-b.x, a.y-b.y, a.z-b.z
      local d2 = dx*dx+dy*dy+dz*dz+0.01
      local mag = dt / (d2 * math.sqrt(d2))
      a.vx = a.vx - dx*b.m*mag; a.vy = a.vy - dy*b.m*mag; a.vz = a.vz - dz*b.m*mag
      b.vx = b.vx + dx*a.m*mag; b.vy = b.vy + dy*a.m*mag; b.vz = b.vz + dz*a.m*mag
    end
  end
  for _, b in ipairs(bs) do
    b.x = b.x + dt*b.vx; b.y = b.y + dt*b.vy; b.z = b.z + dt*b.vz
  end
end
for s = 1, 20000 do advance(bodies, 0.01) end
print(bodies[1].x)
