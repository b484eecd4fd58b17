-- cute-lsp for Neovim 0.7 and later.
--
--   require('cute_lsp').setup({
--     cmd = { 'cute-lsp' },                 -- the server binary
--     settings = { cute = { tableCap = 64, defaultElementType = 'half_t', arch = 'sm90' } },
--   })
--
-- Every buffer of the listed filetypes attaches to one shared server.
local M = {}

M.defaults = {
  cmd = { 'cute-lsp' },
  filetypes = { 'cute', 'mlir', 'cpp', 'cuda', 'python' },
  settings = { cute = {} },
  on_attach = nil,
}

local client_id = nil

local function start(opts)
  if client_id and vim.lsp.get_client_by_id(client_id) then
    return client_id
  end
  client_id = vim.lsp.start_client({
    name = 'cute-lsp',
    cmd = opts.cmd,
    root_dir = vim.fn.getcwd(),
    settings = opts.settings,
    init_options = opts.settings,
    on_attach = opts.on_attach,
  })
  return client_id
end

-- attach connects buffer bufnr to the server, starting it on first use.
function M.attach(bufnr, opts)
  local id = start(opts or M.defaults)
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

function M.setup(user)
  local opts = vim.tbl_deep_extend('force', M.defaults, user or {})
  local group = vim.api.nvim_create_augroup('cute_lsp', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = '*.cute',
    command = 'setfiletype cute',
  })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      M.attach(args.buf, opts)
    end,
  })
end

return M
