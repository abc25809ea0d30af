-- Starts `harnc lsp` for Harn buffers. No plugin needed; works with Neovim 0.7 and later.
--
--   local harn = dofile('/path/to/harnc/editors/nvim/lsp.lua')
--   harn.setup({
--     cmd = { 'harnc', 'lsp' },                -- default; e.g. { '/abs/path/harnc', 'lsp' }
--     manifest_path = 'harn.manifest.json',    -- optional: initializationOptions.manifestPath
--     on_attach = function(client, bufnr) end, -- optional
--   })
--
-- setup() registers the `harn` filetype for *.harn and starts (or reuses) one client per
-- project root for every buffer of that filetype. The root is the nearest directory,
-- from the buffer's file upwards, that holds `harn.manifest.json` or `.git`; else the
-- file's own directory. Without a manifest_path the server reads harn.manifest.json at
-- that root when there is one.
local M = {}

local uv = vim.uv or vim.loop
local ROOT_MARKERS = { 'harn.manifest.json', '.git' }

local options = {
  cmd = { 'harnc', 'lsp' },
  manifest_path = nil,
  on_attach = nil,
  capabilities = nil,
}

-- Client ids by root directory, for Neovim versions without vim.lsp.start (0.7).
local clients_by_root = {}

local function ensure_filetype()
  -- The same detection as ftdetect/harn.lua beside this file (safe to source twice).
  local here = debug.getinfo(1, 'S').source:sub(2):match('(.*/)') or './'
  dofile(here .. 'ftdetect/harn.lua')
end

--- The project root of a buffer (see the header).
function M.root_dir(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local start = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or uv.cwd()
  local dir = start
  while dir and dir ~= '' do
    for _, marker in ipairs(ROOT_MARKERS) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return start
end

local function client_config(root)
  local config = {
    name = 'harnc',
    cmd = options.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    on_attach = options.on_attach,
    capabilities = options.capabilities,
  }
  if options.manifest_path then
    config.init_options = { manifestPath = options.manifest_path }
  end
  return config
end

--- Starts the server for `bufnr` (or attaches the buffer to the running one).
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = M.root_dir(bufnr)
  local config = client_config(root)
  if vim.lsp.start then
    -- Neovim 0.8+: reuses a client with the same name and root.
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Registers the filetype and starts the server for every Harn buffer.
function M.setup(opts)
  options = vim.tbl_extend('force', options, opts or {})
  ensure_filetype()
  local group = vim.api.nvim_create_augroup('harn_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'harn',
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers that already have the filetype (setup() called late).
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'harn' then
      M.start(buf)
    end
  end
end

return M
