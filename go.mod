module github.com/cute-lsp/cute-lsp

go 1.26.8
