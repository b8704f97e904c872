-- lsp_nvim.lua - Neovim (0.7's vim.lsp.start_client) as the client of
-- `ddbc lsp`: opens $LSP_FILE and writes the first diagnostics it is sent
-- to $LSP_OUT as JSON, then quits (tests/lsp.test compares them with lint).
local ddbc, file, out = os.getenv('DDBC_BIN'), os.getenv('LSP_FILE'), os.getenv('LSP_OUT')
local client = vim.lsp.start_client({
  cmd = { ddbc, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      local f = io.open(out, 'w')
      f:write(vim.fn.json_encode(result))
      f:close()
      vim.schedule(function() vim.cmd('qall!') end)
    end,
  },
})
if not client then
  vim.cmd('cquit 2')
end
vim.cmd('edit ' .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, client)
-- No diagnostics within 20 s is a failure.
vim.defer_fn(function() vim.cmd('cquit 3') end, 20000)
