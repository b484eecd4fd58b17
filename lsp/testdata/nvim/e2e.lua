-- End-to-end session driven by TestNeovimEndToEnd: open a sheet through the
-- editors/nvim configuration, wait for diagnostics, hover, apply the quick
-- fix, and write what happened to $CUTE_RESULT as JSON. Always quits.
local result = { steps = {} }

local function step(name)
  table.insert(result.steps, name)
end

local function finish(err)
  result.error = err
  result.lines = result.lines or vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local f = io.open(os.getenv('CUTE_RESULT'), 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local function float_lines()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), win
    end
  end
  return nil
end

-- The text of the hover window opened at the cursor (closed after), or an
-- error.
local function hover_text()
  vim.lsp.buf.hover()
  local lines, win
  if not vim.wait(10000, function()
    lines, win = float_lines()
    return lines ~= nil
  end, 20) then
    return nil, 'no hover window opened'
  end
  vim.api.nvim_win_close(win, true)
  return table.concat(lines, '\n'), nil
end

local function run()
  vim.opt.runtimepath:prepend(os.getenv('CUTE_NVIM_DIR'))
  require('cute_lsp').setup({
    cmd = { os.getenv('CUTE_LSP_BIN') },
    settings = { cute = { tableCap = 16 } },
  })
  -- Pick the first code action, as a user would from the menu.
  vim.ui.select = function(items, opts, on_choice)
    result.actions = {}
    for _, item in ipairs(items) do
      table.insert(result.actions, (opts.format_item(item)))
    end
    on_choice(items[1], 1)
  end

  local ERROR = { severity = vim.diagnostic.severity.ERROR }
  local function record(bufnr)
    local out = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr, ERROR)) do
      table.insert(out, { lnum = d.lnum, col = d.col, message = d.message })
    end
    return out
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CUTE_SHEET')))
  step('opened')
  result.filetype = vim.bo.filetype
  local sheet = vim.api.nvim_get_current_buf()

  if not vim.wait(20000, function() return #vim.diagnostic.get(0, ERROR) > 0 end, 20) then
    return finish('no diagnostics arrived')
  end
  result.diagnostics = record(sheet)
  step('diagnostics')

  -- Hover on the binding `tile` (1-based rows, 0-based columns).
  vim.api.nvim_win_set_cursor(0, { 1, 1 })
  local err
  result.hover, err = hover_text()
  if err then
    return finish(err)
  end
  step('hover')

  -- The quick fix for the error on line 2.
  local before = vim.api.nvim_buf_get_lines(0, 1, 2, false)[1]
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.lsp.buf.code_action()
  if not vim.wait(10000, function() return vim.api.nvim_buf_get_lines(0, 1, 2, false)[1] ~= before end, 20) then
    return finish('the code action changed nothing')
  end
  step('code action')

  if not vim.wait(10000, function() return #vim.diagnostic.get(0, ERROR) == 0 end, 20) then
    return finish('errors did not clear after the fix')
  end
  step('diagnostics cleared')
  result.lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)

  -- A CUDA file: a bad descriptor after non-ASCII text in a comment; the
  -- column arrives in UTF-16 units and Neovim shows it in bytes.
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CUTE_HOST')))
  if not vim.wait(20000, function() return #vim.diagnostic.get(0, ERROR) > 0 end, 20) then
    return finish('no diagnostics for the host file')
  end
  result.host_diagnostics = record(0)
  step('host diagnostics')

  -- Hover on CuTe C++ code: the layout make_layout builds.
  local row, col = os.getenv('CUTE_HOST_HOVER_AT'):match('(%d+),(%d+)')
  vim.api.nvim_win_set_cursor(0, { tonumber(row), tonumber(col) })
  local err2
  result.host_hover, err2 = hover_text()
  if err2 then
    return finish('host: ' .. err2)
  end
  step('host hover')
  vim.cmd('buffer ' .. sheet)
  finish(nil)
end

local ok, err = pcall(run)
if not ok then
  finish('lua error: ' .. tostring(err))
end
