-- Run by TestNeovimSyntax (editors/nvim_test.go): Neovim started with
-- editors/nvim first on the runtime path, no server. Opens $CUTE_SHEET and
-- writes to $CUTE_RESULT its filetype, comment options and the syntax group
-- at each probe of $CUTE_PROBES ([{line, col}], 1-based byte columns).
local result = {}
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CUTE_SHEET')))
  result.filetype = vim.bo.filetype
  result.syntax = vim.b.current_syntax or ''
  result.commentstring = vim.bo.commentstring
  result.comments = vim.bo.comments
  result.groups = {}
  for _, p in ipairs(vim.fn.json_decode(os.getenv('CUTE_PROBES'))) do
    local id = vim.fn.synID(p[1], p[2], 1)
    table.insert(result.groups, vim.fn.synIDattr(id, 'name'))
  end
end)
if not ok then
  result.error = tostring(err)
end
local f = io.open(os.getenv('CUTE_RESULT'), 'w')
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd('qa!')
