# The two commands a new machine needs: `make example` and `make test`.
GO ?= go

.PHONY: build test example bench fuzz
build:
	$(GO) build -o bin/cute-lsp ./cmd/cute-lsp

# Every test. The golden vectors are read from ../shared/golden beside the checkout.
# Neovim (Debian's 0.7.2) drives the editor end-to-end test of package lsp; node and npm
# (Debian's nodejs and npm) run the VS Code extension's tests against the built binary.
test:
	@command -v nvim >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null; } \
		|| { echo "make test: could not install neovim; TestNeovimEndToEnd will skip"; test -z "$$CI"; }
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) build -o bin/cute-lsp ./cmd/cute-lsp
	@{ command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; } \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; } \
		|| { echo "make test: node and npm are missing and could not be installed; skipping the VS Code extension tests"; test -z "$$CI"; }
	@if command -v npm >/dev/null 2>&1; then \
		cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error \
		&& CUTE_LSP_BIN=$(abspath bin/cute-lsp) npm test --silent; fi

# The main job: evaluate, format and lint the example sheet.
example: build
	./bin/cute-lsp eval 'logical_divide((128,64):(64,1), [32:1;8:1])'
	./bin/cute-lsp fmt examples/tiles.cute
	./bin/cute-lsp lint --hints examples/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
