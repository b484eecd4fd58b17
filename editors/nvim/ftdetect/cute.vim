" Layout sheets of cute-lsp.
autocmd BufRead,BufNewFile *.cute setfiletype cute
