-- Run by TestNeovimPicture (editors/nvim_test.go): setup with the built
-- server and a picture_open command that copies the page to
-- $CUTE_PICTURE_COPY (through jobstart, as xdg-open is run), open
-- $CUTE_SHEET, run :CutePicture on line 1 (a layout) and on line 2 (an
-- integer tuple, which has no picture), and write what happened to
-- $CUTE_RESULT. Always quits.
local result = {}

local function finish(err)
  result.error = err
  local f = io.open(os.getenv('CUTE_RESULT'), 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local function run()
  local copy = os.getenv('CUTE_PICTURE_COPY')
  require('cute_lsp').setup({
    cmd = { os.getenv('CUTE_LSP_BIN') },
    picture_open = { 'sh', '-c', 'cp "$0" "$CUTE_PICTURE_COPY"' },
  })
  result.defined = vim.fn.exists(':CutePicture') == 2
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CUTE_SHEET')))
  local sheet = vim.api.nvim_get_current_buf()
  if not vim.wait(20000, function() return #vim.lsp.buf_get_clients(sheet) > 0 and vim.lsp.buf_get_clients(sheet)[next(vim.lsp.buf_get_clients(sheet))].initialized ~= false end, 20) then
    return finish('no server attached')
  end
  local messages = {}
  local notify = vim.notify
  vim.notify = function(msg, level)
    table.insert(messages, { msg = msg, level = level })
  end

  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  local path
  vim.wait(20000, function()
    path = require('cute_lsp').picture()
    return path ~= nil
  end, 200)
  result.path = path
  if not vim.wait(10000, function() return vim.fn.filereadable(copy) == 1 and vim.fn.getfsize(copy) == vim.fn.getfsize(path or '') end, 20) then
    vim.notify = notify
    result.messages = messages
    return finish('picture_open did not run on the page')
  end
  result.page = table.concat(vim.fn.readfile(copy), '\n')

  messages = {}
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('CutePicture')
  result.refused = messages
  vim.notify = notify
  finish(nil)
end

local ok, err = pcall(run)
if not ok then
  finish(tostring(err))
end
