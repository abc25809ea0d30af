-- Filetype `harn` for *.harn files. Sourced from the runtimepath's ftdetect/ directory
-- (add editors/nvim to 'runtimepath'); safe to source more than once.
-- Neovim 0.8+ detects filetypes in Lua; 0.7 still uses filetype.vim (autocmds).
if vim.fn.has('nvim-0.8') == 1 then
  vim.filetype.add({ extension = { harn = 'harn' } })
else
  vim.cmd([[
    augroup harn_ftdetect
      autocmd!
      autocmd BufRead,BufNewFile *.harn setfiletype harn
    augroup END
  ]])
end
