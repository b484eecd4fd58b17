-- Run by TestNeovimCommands (editors/nvim_test.go): require('cute_lsp').setup
-- with the built server, open $CUTE_SHEET, wait for its diagnostics, then
-- run :CuteTable with the cursor on the layout at $CUTE_TABLE_AT
-- ("line,col", 1-based line, 0-based byte column) and :CuteEval, and write
-- the lines of the splits they open (and the commands defined) to
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
  require('cute_lsp').setup({ cmd = { os.getenv('CUTE_LSP_BIN') }, settings = { cute = { tableCap = 8 } } })
  result.commands = {}
  for _, name in ipairs({ 'CuteTable', 'CuteEval', 'CuteRestart' }) do
    result.commands[name] = vim.fn.exists(':' .. name) == 2
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CUTE_SHEET')))
  local sheet = vim.api.nvim_get_current_buf()
  local ERROR = { severity = vim.diagnostic.severity.ERROR }
  if not vim.wait(20000, function() return #vim.diagnostic.get(sheet, ERROR) > 0 end, 20) then
    return finish('no diagnostics arrived')
  end

  local line, col = os.getenv('CUTE_TABLE_AT'):match('(%d+),(%d+)')
  vim.api.nvim_win_set_cursor(0, { tonumber(line), tonumber(col) })
  vim.cmd('CuteTable')
  result.table_filetype = vim.bo.filetype
  result.table = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('close')

  vim.api.nvim_set_current_buf(sheet)
  vim.cmd('CuteEval')
  result.values = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('close')

  -- A restart attaches the sheet to a new server, which answers again.
  vim.cmd('CuteRestart')
  if not vim.wait(20000, function()
    local clients = vim.lsp.buf_get_clients(sheet)
    for _, c in pairs(clients) do
      if c.name == 'cute-lsp' and c.initialized ~= false then
        local answer = c.request_sync('textDocument/hover', vim.lsp.util.make_position_params(0, c.offset_encoding), 2000, sheet)
        return answer ~= nil and answer.result ~= nil
      end
    end
    return false
  end, 100) then
    return finish('no hover after :CuteRestart')
  end
  result.restarted = true
  finish(nil)
end

local ok, err = pcall(run)
if not ok then
  finish(tostring(err))
end
