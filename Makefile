# The two commands a new machine needs: `make example` and `make test`.
GO ?= go

.PHONY: build test example bench fuzz
build:
	$(GO) build -o bin/cute-lsp ./cmd/cute-lsp

# Every test. The golden vectors are read from ../shared/golden beside the checkout.
test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

example: build
	./bin/cute-lsp --help

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
