-- cute-lsp for Neovim 0.7 and later.
--
--   require('cute_lsp').setup({
--     cmd = { 'cute-lsp' },                 -- the server binary
--     settings = { cute = { tableCap = 64, defaultElementType = 'half_t', arch = 'sm90' } },
--     picture_open = { 'xdg-open' },       -- :CutePicture's viewer (the page's path is appended),
--                                          -- a function(path), or false to only write the page
--   })
--
-- Every buffer of the listed filetypes attaches to one shared server.
-- Commands: :CuteTable (the offset table of the layout under the cursor),
-- :CuteEval (every value of the sheet), :CutePicture (the interactive page
-- of the value under the cursor, written to a temporary .html file and
-- opened with picture_open), :CuteRestart; on Neovim 0.10 and
-- later, inlay_hints = true shows the values inline (vim.lsp.inlay_hint).
local M = {}

M.defaults = {
  cmd = { 'cute-lsp' },
  filetypes = { 'cute', 'mlir', 'cpp', 'cuda', 'python' },
  settings = { cute = {} },
  on_attach = nil,
  inlay_hints = false,
  picture_open = { 'xdg-open' },
}

-- The options of the last setup, for :CuteRestart.
local current = M.defaults

local client_id = nil

local function on_attach(opts)
  return function(client, bufnr)
    -- Inlay hints (the value of every binding) need Neovim 0.10.
    if opts.inlay_hints and vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
      pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
    end
    if opts.on_attach then
      opts.on_attach(client, bufnr)
    end
  end
end

local function start(opts)
  if client_id and vim.lsp.get_client_by_id(client_id) then
    return client_id
  end
  if vim.fn.executable(opts.cmd[1]) ~= 1 then
    vim.notify(
      ('cute-lsp: the server binary %q was not found (the cmd option of require("cute_lsp").setup). '
        .. 'Install it with `make install` in the cute-lsp checkout, or give its full path.'):format(opts.cmd[1]),
      vim.log.levels.ERROR
    )
    return nil
  end
  client_id = vim.lsp.start_client({
    name = 'cute-lsp',
    cmd = opts.cmd,
    root_dir = vim.fn.getcwd(),
    settings = opts.settings,
    init_options = opts.settings,
    on_attach = on_attach(opts),
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

-- client returns the running cute-lsp client attached to bufnr, or nil
-- after saying why.
local function client_for(bufnr)
  local c = client_id and vim.lsp.get_client_by_id(client_id)
  if not c or not vim.lsp.buf_is_attached(bufnr, client_id) then
    vim.notify('cute-lsp: no server is attached to this buffer (see :CuteRestart)', vim.log.levels.ERROR)
    return nil
  end
  return c
end

-- show puts lines in a scratch buffer in a split below, with the filetype.
local function show(name, lines, filetype)
  vim.cmd('belowright new')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  pcall(vim.api.nvim_buf_set_name, buf, name)
  return buf
end

-- request sends one request to the client and waits for its answer
-- (timeout_ms, default 5 s).
local function request(c, bufnr, method, params, timeout_ms)
  local answer, err = c.request_sync(method, params, timeout_ms or 5000, bufnr)
  if not answer then
    vim.notify(('cute-lsp: %s: %s'):format(method, err or 'no answer'), vim.log.levels.ERROR)
    return nil
  end
  if answer.err then
    vim.notify(('cute-lsp: %s: %s'):format(method, answer.err.message or vim.inspect(answer.err)), vim.log.levels.ERROR)
    return nil
  end
  return answer.result
end

-- M.table shows the hover of the layout under the cursor (its facts and
-- offset table, cut at the tableCap setting) in a split.
function M.table()
  local bufnr = vim.api.nvim_get_current_buf()
  local c = client_for(bufnr)
  if not c then
    return
  end
  local params = vim.lsp.util.make_position_params(0, c.offset_encoding)
  local hover = request(c, bufnr, 'textDocument/hover', params)
  if not hover or not hover.contents then
    vim.notify('cute-lsp: no layout under the cursor', vim.log.levels.INFO)
    return
  end
  local lines = vim.lsp.util.convert_input_to_markdown_lines(hover.contents)
  return show('cute-lsp://table', lines, 'markdown')
end

-- open_picture shows the page at path with opts.picture_open: a command
-- (the path appended, run detached) or a function; false only writes it.
local function open_picture(path, open)
  if type(open) == 'function' then
    return open(path)
  end
  if type(open) ~= 'table' or #open == 0 then
    return
  end
  local cmd = vim.list_extend(vim.deepcopy(open), { path })
  local ok, job = pcall(vim.fn.jobstart, cmd, { detach = true })
  if not ok or job <= 0 then
    vim.notify(
      ('cute-lsp: could not run %q to open the picture (the picture_open option); the page is %s'):format(open[1], path),
      vim.log.levels.ERROR
    )
  end
end

-- M.picture asks the server for the interactive page of the value under
-- the cursor (its cute.picture command), writes it to a temporary .html
-- file and opens it with picture_open. It returns the file's path.
function M.picture()
  local bufnr = vim.api.nvim_get_current_buf()
  local c = client_for(bufnr)
  if not c then
    return
  end
  local at = vim.lsp.util.make_position_params(0, c.offset_encoding)
  local page = request(c, bufnr, 'workspace/executeCommand', {
    command = 'cute.picture',
    arguments = { at.textDocument.uri, at.position },
  }, 20000)
  if type(page) ~= 'string' then
    if page ~= nil then
      vim.notify('cute-lsp: the server sent no picture', vim.log.levels.ERROR)
    end
    return
  end
  local path = vim.fn.tempname() .. '.html'
  local f, err = io.open(path, 'w')
  if not f then
    vim.notify(('cute-lsp: cannot write the picture: %s'):format(err), vim.log.levels.ERROR)
    return
  end
  f:write(page)
  f:close()
  vim.notify('cute-lsp: picture written to ' .. path, vim.log.levels.INFO)
  open_picture(path, current.picture_open)
  return path
end

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, part in ipairs(label or {}) do
    table.insert(parts, part.value)
  end
  return table.concat(parts)
end

-- M.eval lists every computed statement of the sheet with its value (the
-- server's inlay hints) and the sheet's errors, in a split.
function M.eval()
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype ~= 'cute' then
    vim.notify('cute-lsp: :CuteEval works on a .cute sheet', vim.log.levels.WARN)
    return
  end
  local c = client_for(bufnr)
  if not c then
    return
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  local hints = request(c, bufnr, 'textDocument/inlayHint', {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = { start = { line = 0, character = 0 }, ['end'] = { line = count, character = 0 } },
  }) or {}
  table.sort(hints, function(a, b)
    return a.position.line < b.position.line
  end)
  local rows, width = {}, 0
  for _, h in ipairs(hints) do
    local line = h.position.line
    local source = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ''
    source = source:gsub('%s*#.*$', ''):gsub('%s*//.*$', '')
    local head = ('%d: %s'):format(line + 1, source)
    width = math.max(width, #head)
    table.insert(rows, { head = head, value = label_text(h.label):gsub('^%s*=%s*', '') })
  end
  local errors = vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })
  local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t')
  local lines = { ('# %s: %d values, %d errors (cute-lsp)'):format(name, #rows, #errors) }
  for _, r in ipairs(rows) do
    table.insert(lines, r.head .. string.rep(' ', width - #r.head) .. '  = ' .. r.value)
  end
  for _, d in ipairs(errors) do
    table.insert(lines, ('%d: error: %s'):format(d.lnum + 1, (d.message:gsub('\n', ' '))))
  end
  return show('cute-lsp://values', lines, 'cute')
end

-- M.restart stops the server and attaches every buffer of the filetypes
-- to a new one (for a rebuilt binary or changed settings).
function M.restart()
  local old = client_id and vim.lsp.get_client_by_id(client_id)
  client_id = nil
  if old then
    vim.lsp.stop_client(old.id, true)
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(current.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr, current)
    end
  end
end

function M.setup(user)
  local opts = vim.tbl_deep_extend('force', M.defaults, user or {})
  current = opts
  vim.api.nvim_create_user_command('CuteTable', M.table, { desc = 'cute-lsp: offset table of the layout under the cursor' })
  vim.api.nvim_create_user_command('CuteEval', M.eval, { desc = 'cute-lsp: every value of this sheet' })
  vim.api.nvim_create_user_command('CutePicture', function()
    M.picture()
  end, { desc = 'cute-lsp: interactive picture of the value under the cursor' })
  vim.api.nvim_create_user_command('CuteRestart', M.restart, { desc = 'cute-lsp: restart the server' })
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
