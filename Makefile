# The two commands a new machine needs: `make example` and `make test`.
GO ?= go
# Where `make install` puts the binary: $(PREFIX)/bin, on PATH on most systems.
PREFIX ?= /usr/local
# -buildvcs=auto records the commit in the binary (cute-lsp --version) even where
# GOFLAGS turns it off; outside a git checkout it records nothing and still builds.
# CGO_ENABLED=0: nothing needs cgo (go list -deps: only net's resolver would use it, and
# cute-lsp resolves no host names); the static binary starts in 1.4-1.7 ms of CPU, not 2.1-2.2
# (perf stat -r 100 -e task-clock bin/cute-lsp --version), which every lint run pays.
BUILD = CGO_ENABLED=0 $(GO) build -buildvcs=auto

.PHONY: build install test example bench bench-ops bench-lsp bench-lint fuzz
build:
	$(BUILD) -o bin/cute-lsp ./cmd/cute-lsp

install: build
	install -D -m 0755 bin/cute-lsp $(DESTDIR)$(PREFIX)/bin/cute-lsp
	@echo "installed $(DESTDIR)$(PREFIX)/bin/cute-lsp: $$($(DESTDIR)$(PREFIX)/bin/cute-lsp --version)"

# Every test. The golden vectors are read from ../shared/golden beside the checkout.
# Neovim (Debian's 0.7.2) drives the editor end-to-end tests of packages lsp and editors,
# Emacs (Debian's emacs-nox, elpa-eglot, elpa-lsp-mode) those of package editors; headless
# Chromium (Debian's chromium, about 350 MB installed) loads the pages of `cute-lsp html` in
# package picture's TestBrowser; node and npm (Debian's nodejs and npm) run the VS Code
# extension's tests against the built binary. Each is installed once per machine when
# missing, and make test says so. npm ci skips install scripts: only keytar and vsce-sign
# have any, for publishing, not for tests.
test:
	@pkgs=""; command -v nvim >/dev/null 2>&1 || pkgs=" neovim"; \
		command -v emacs >/dev/null 2>&1 || pkgs="$$pkgs emacs-nox"; \
		for lib in eglot lsp-mode; do \
			emacs --batch -q --eval "(require '$$lib)" >/dev/null 2>&1 || pkgs="$$pkgs elpa-$$lib"; done; \
		{ test -n "$$CUTE_LSP_CHROMIUM" || command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
			|| command -v google-chrome >/dev/null 2>&1; } || pkgs="$$pkgs chromium"; \
		if [ -n "$$pkgs" ]; then \
			echo "make test: installing Debian's$$pkgs (apt-get) for the editor and browser tests"; \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkgs >/dev/null; } \
			|| { echo "make test: could not install$$pkgs; the tests that need them will skip"; test -z "$$CI"; }; \
		fi
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(BUILD) -o bin/cute-lsp ./cmd/cute-lsp
	@{ command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; } \
		|| { echo "make test: installing Debian's nodejs and npm (apt-get) for the VS Code extension's tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; } \
		|| { echo "make test: node and npm are missing and could not be installed; skipping the VS Code extension tests"; test -z "$$CI"; }
	@if command -v npm >/dev/null 2>&1; then \
		cd editors/vscode && npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error \
		&& CUTE_LSP_BIN=$(abspath bin/cute-lsp) npm test --silent \
		&& npm run --silent test:targets; fi

# The main job: evaluate, run, format and lint the example sheet.
example: build
	./bin/cute-lsp eval 'logical_divide((128,64):(64,1), [32:1;8:1])'
	./bin/cute-lsp run examples/tiles.cute
	./bin/cute-lsp fmt examples/tiles.cute
	./bin/cute-lsp lint --hints examples/

# Every fuzzer of every package, FUZZTIME each (default 30s). Go minimizes each new input it
# finds for up to a minute by default, during which a worker runs nothing else; the edit fuzzers'
# inputs are whole sheets and scripts of edits, so minimization is capped at 2 s.
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz: $$pkg $$f ($(FUZZTIME))"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s || exit 1; \
		done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# coalesce, complement, composition, right_inverse, logical_divide and logical_product on the
# cases of ../shared/bench/pycute_cases.json through the table of operations (the path of a
# sheet's call, hover and eval), then pycute's figures on the same cases (CUTLASS, default
# /work/cutlass, holds python/pycute) and the ratio pycute/ours (internal/benchops).
CUTLASS ?= /work/cutlass
bench-ops:
	CUTLASS=$(CUTLASS) $(GO) run ./internal/benchops -cases ../shared/bench/pycute_cases.json -pycute ../shared/bench/pycute_bench.py
	$(GO) run ./internal/benchops -runtime -cases testdata/bench/runtime_cases.json -cpp testdata/bench/cute_runtime_bench.sh

# cute-lsp beside mlir-lsp-server on one large document at 500 to 200,000 lines, interleaved
# rounds, with ratios (testdata/bench/peer.py, client ../shared/bench/lsp_peer.py; about 10
# minutes). SIZES="lines:rounds:edits,..." picks other sizes; BASE=path/to/cute-lsp runs another
# build (main's, say) in the same rounds, printed beside, to compare before and after under the
# same load. The peer is Debian's mlir-22-tools, installed once when missing.
MLIR_LSP ?= mlir-lsp-server-22
bench-lsp: build
	@command -v $(MLIR_LSP) >/dev/null 2>&1 || { \
		echo "make bench-lsp: installing Debian's mlir-22-tools (apt-get) for the peer server $(MLIR_LSP)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mlir-22-tools >/dev/null; }
	CUTE=bin/cute-lsp MLIR=$(MLIR_LSP) python3 testdata/bench/peer.py

# Lint's speed, issue 14's figure: files/s of `cute-lsp lint` over CUTLASS's include/cute +
# examples/cute (CUTLASS, default /work/cutlass; skipped with a message without it) and of
# `grep -r` over the same files, interleaved rounds (ROUNDS, default 9), and the ratio.
bench-lint: build
	CUTLASS=$(CUTLASS) testdata/bench/lint.sh bin/cute-lsp
