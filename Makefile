# The two commands a new machine needs: `make example` and `make test`.
GO ?= go

.PHONY: build test example bench fuzz
build:
	$(GO) build -o bin/cute-lsp ./cmd/cute-lsp

# Every test. The golden vectors are read from ../shared/golden beside the checkout.
# Neovim (Debian's 0.7.2) drives the editor end-to-end test of package lsp.
test:
	@command -v nvim >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null; } \
		|| { echo "make test: could not install neovim; TestNeovimEndToEnd will skip"; test -z "$$CI"; }
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# The main job: evaluate, format and lint the example sheet.
example: build
	./bin/cute-lsp eval 'logical_divide((128,64):(64,1), [32:1;8:1])'
	./bin/cute-lsp fmt examples/tiles.cute
	./bin/cute-lsp lint --hints examples/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
