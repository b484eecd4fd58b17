package analysis

import (
	"os"
	"testing"

	"github.com/cute-lsp/cute-lsp/source"
)

// TestMain reads every C++ text of these tests that may call the algebra
// with runs left out (source.LintRunsMinBytes 0), however small: the
// tests of lint's read (lint_read_test.go, the adversarial shapes and
// their fuzzers) check the runs on texts of a few hundred bytes, which
// lint reads in full.
func TestMain(m *testing.M) {
	source.LintRunsMinBytes = 0
	os.Exit(m.Run())
}
