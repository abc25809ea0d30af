-- Drives `harnc lsp` from headless Neovim, a real editor as the LSP client, through
-- what a snippet author sees: diagnostics, completion, hover, and diagnostics clearing
-- after an edit sent with incremental sync. Used by tests/lsp_neovim.rs.
--
-- Neovim 0.9 and later:
--   nvim --headless --clean -u NONE -l tests/nvim/lsp_check.lua HARNC MANIFEST SNIPPET
-- Any version (0.7 has no `-l`): the same three values in the environment,
--   HARNC=... HARN_MANIFEST=... HARN_SNIPPET=... nvim --headless --clean -u NONE -S tests/nvim/lsp_check.lua
--
-- Prints `ok NAME` or `FAIL NAME: DETAIL` per check; exits 0 only when every check
-- passed. Every wait is bounded, and a watchdog ends the run if something still hangs.

local TIMEOUT_MS = 10000
local WATCHDOG_MS = 50000

local function out(line)
  io.stdout:write(line, '\n')
  io.stdout:flush()
end

local failures = 0
local server_messages = {}
local client_id = nil
local server_exit = nil
local initialized = false

local function ok(name)
  out('ok ' .. name)
end

local function fail(name, detail)
  failures = failures + 1
  out('FAIL ' .. name .. ': ' .. tostring(detail):gsub('\n', ' | '))
end

-- Stops the client the way an editor does (shutdown, then exit) and checks that the
-- server then ends with status 0, the protocol's rule.
local function stop_client()
  if client_id == nil then
    return
  end
  local id = client_id
  client_id = nil
  if server_exit ~= nil then
    return -- Already gone; the check that saw it reported why.
  end
  if not initialized then
    vim.lsp.stop_client(id, true) -- Nothing to shut down gracefully.
    vim.wait(5000, function()
      return server_exit ~= nil
    end, 20)
    return
  end
  vim.lsp.stop_client(id)
  vim.wait(5000, function()
    return server_exit ~= nil
  end, 20)
  if server_exit == nil then
    vim.lsp.stop_client(id, true)
    fail('shutdown', 'the server was still running 5 s after shutdown and exit')
  elseif server_exit.code ~= 0 or (server_exit.signal or 0) ~= 0 then
    fail('shutdown', string.format('the server ended with status %s, signal %s', server_exit.code, server_exit.signal))
  else
    ok('shutdown')
  end
end

local function finish()
  stop_client()
  if failures > 0 then
    for _, m in ipairs(server_messages) do
      out('# server: ' .. m:gsub('\n', ' | '))
    end
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

-- Arguments from `-l` (the global `arg`) or, for `-S`, from the environment.
local function arguments()
  local a = rawget(_G, 'arg')
  if type(a) == 'table' and a[1] ~= nil then
    return a[1], a[2], a[3]
  end
  return os.getenv('HARNC'), os.getenv('HARN_MANIFEST'), os.getenv('HARN_SNIPPET')
end

local function contains(list, wanted)
  for _, v in ipairs(list) do
    if v == wanted then
      return true
    end
  end
  return false
end

-- The first response to a request, or nil and why not.
local function request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT_MS)
  if responses == nil then
    return nil, 'no response: ' .. tostring(err)
  end
  local r = responses[client_id]
  if r == nil then
    return nil, 'no response from the harn client'
  end
  if r.err ~= nil or r.error ~= nil then
    return nil, 'error response: ' .. vim.inspect(r.err or r.error)
  end
  return r.result
end

local function completion_labels(bufnr, line, character)
  local result, why = request(bufnr, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = character },
  })
  if result == nil then
    return nil, why or 'null result'
  end
  local items = result.items or result
  local labels = {}
  for _, item in ipairs(items) do
    table.insert(labels, item.label)
  end
  return labels
end

-- A label list short enough for a failure line.
local function show_labels(labels)
  local shown = {}
  for i = 1, math.min(#labels, 20) do
    shown[i] = labels[i]
  end
  local more = #labels > 20 and (', ... (' .. #labels .. ' in all)') or ''
  return table.concat(shown, ', ') .. more
end

local function find_line(bufnr, pattern)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:find(pattern, 1, true) then
      return i - 1, l
    end
  end
  return nil
end

local function errors(bufnr)
  return vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })
end

local function describe(diagnostics)
  local parts = {}
  for _, d in ipairs(diagnostics) do
    table.insert(parts, string.format('line %d: %s', d.lnum, d.message))
  end
  if #parts == 0 then
    return 'none'
  end
  return table.concat(parts, '; ')
end

local function main()
  local harnc, manifest, snippet = arguments()
  if harnc == nil or manifest == nil or snippet == nil then
    fail('arguments', 'expected HARNC MANIFEST SNIPPET')
    return
  end
  if vim.fn.executable(harnc) ~= 1 then
    fail('arguments', 'not executable: ' .. harnc)
    return
  end
  manifest = vim.fn.fnamemodify(manifest, ':p')
  snippet = vim.fn.fnamemodify(snippet, ':p')
  if vim.fn.filereadable(manifest) ~= 1 or vim.fn.filereadable(snippet) ~= 1 then
    fail('arguments', 'cannot read ' .. manifest .. ' or ' .. snippet)
    return
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(snippet))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'harn'
  local uri = vim.uri_from_bufnr(bufnr)

  -- Every diagnostics notification for the snippet is counted, so a wait can tell a
  -- fresh publish from the state before an edit.
  local publishes = 0
  local function on_publish(err, result, ctx, config)
    if result ~= nil and result.uri == uri then
      publishes = publishes + 1
    end
    return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
  end
  local function keep(kind)
    return function(_, result)
      if result ~= nil and result.message ~= nil then
        table.insert(server_messages, kind .. ' ' .. result.message)
      end
      return vim.NIL
    end
  end

  local config = {
    name = 'harn',
    cmd = { harnc, 'lsp' },
    root_dir = vim.fn.fnamemodify(snippet, ':h'),
    init_options = { manifestPath = manifest },
    handlers = {
      ['textDocument/publishDiagnostics'] = on_publish,
      ['window/logMessage'] = keep('log'),
      ['window/showMessage'] = keep('show'),
    },
    on_exit = function(code, signal)
      server_exit = { code = code, signal = signal }
    end,
  }
  if vim.lsp.start ~= nil then
    client_id = vim.lsp.start(config, { bufnr = bufnr })
  else
    -- Neovim 0.7: start, then attach the buffer (didOpen follows initialization).
    client_id = vim.lsp.start_client(config)
    if client_id ~= nil then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  if client_id == nil then
    fail('start', 'the client did not start')
    return
  end
  initialized = vim.wait(TIMEOUT_MS, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return server_exit ~= nil or (client ~= nil and client.initialized == true)
  end, 20)
  if server_exit ~= nil then
    fail('start', 'the server exited with status ' .. tostring(server_exit.code))
    return
  elseif not initialized then
    fail('start', 'no answer to initialize within ' .. TIMEOUT_MS .. ' ms')
    return
  end

  -- (a) The misspelled local is reported on its own line.
  local typo_line = find_line(bufnr, 'println(listin)')
  if typo_line == nil then
    fail('diagnostics', 'the snippet has no `println(listin)` line')
    return
  end
  local got = vim.wait(TIMEOUT_MS, function()
    return publishes > 0 and #errors(bufnr) > 0
  end, 20)
  if server_exit ~= nil then
    fail('diagnostics', 'the server exited with status ' .. tostring(server_exit.code))
    return
  end
  if not got then
    fail('diagnostics', 'no error published within ' .. TIMEOUT_MS .. ' ms (' .. publishes .. ' publishes)')
  else
    local on_line, elsewhere = 0, {}
    for _, d in ipairs(errors(bufnr)) do
      if d.lnum == typo_line then
        on_line = on_line + 1
      else
        table.insert(elsewhere, d)
      end
    end
    if on_line == 0 then
      fail('diagnostics', 'no error on line ' .. typo_line .. '; got ' .. describe(errors(bufnr)))
    elseif #elsewhere > 0 then
      fail('diagnostics', 'errors on other lines: ' .. describe(elsewhere))
    else
      ok('diagnostics')
    end
  end

  -- Completion lines are typed in just before `return`, then taken out again.
  local scratch = find_line(bufnr, 'return ') or vim.api.nvim_buf_line_count(bufnr)

  -- (b) Binding names complete after a prefix.
  local typed = 'let x = list_'
  vim.api.nvim_buf_set_lines(bufnr, scratch, scratch, false, { typed })
  local labels, why = completion_labels(bufnr, scratch, #typed)
  vim.api.nvim_buf_set_lines(bufnr, scratch, scratch + 1, false, {})
  if labels == nil then
    fail('completion-binding', why)
  elseif not (contains(labels, 'list_directory') and contains(labels, 'list_allowed_directories')) then
    fail('completion-binding', 'labels: ' .. show_labels(labels))
  else
    ok('completion-binding')
  end

  -- (c) Argument keys complete inside a binding call's dictionary.
  typed = 'let y = read_text_file({})'
  vim.api.nvim_buf_set_lines(bufnr, scratch, scratch, false, { typed })
  local brace = typed:find('{', 1, true) -- 1-based column of `{` = 0-based one after it
  labels, why = completion_labels(bufnr, scratch, brace)
  vim.api.nvim_buf_set_lines(bufnr, scratch, scratch + 1, false, {})
  if labels == nil then
    fail('completion-argument', why)
  elseif not contains(labels, 'path') then
    fail('completion-argument', 'labels: ' .. show_labels(labels))
  else
    ok('completion-argument')
  end

  -- (d) Hover on a binding name shows its side-effect level.
  local call_line, text = find_line(bufnr, 'list_directory(')
  if call_line == nil then
    fail('hover', 'the snippet has no list_directory( call')
  else
    local column = text:find('list_directory(', 1, true) + 2
    local result, hover_why = request(bufnr, 'textDocument/hover', {
      textDocument = { uri = uri },
      position = { line = call_line, character = column },
    })
    local value = result and result.contents and (result.contents.value or vim.inspect(result.contents))
    if value == nil then
      fail('hover', hover_why or 'no hover at ' .. call_line .. ':' .. column)
    elseif not value:find('read_only', 1, true) then
      fail('hover', 'no read_only in ' .. value)
    else
      ok('hover')
    end
  end

  -- (e) Fixing the typo clears the errors: the edit travels as an incremental change.
  typo_line = find_line(bufnr, 'println(listin)')
  if typo_line == nil then
    fail('fix', 'the typo line is gone')
  else
    local before = publishes
    vim.api.nvim_buf_set_lines(bufnr, typo_line, typo_line + 1, false, { 'println(listing)' })
    local cleared = vim.wait(TIMEOUT_MS, function()
      return publishes > before and #errors(bufnr) == 0
    end, 20)
    local fixed = vim.api.nvim_buf_get_lines(bufnr, typo_line, typo_line + 1, false)[1]
    if not cleared then
      fail('fix', 'errors remain after the edit to `' .. fixed .. '`: ' .. describe(errors(bufnr)))
    else
      ok('fix')
    end
  end
end

vim.defer_fn(function()
  fail('watchdog', 'the run took longer than ' .. WATCHDOG_MS .. ' ms')
  vim.cmd('cquit 1')
end, WATCHDOG_MS)

local ran, err = xpcall(main, debug.traceback)
if not ran then
  fail('script', err)
end
finish()
