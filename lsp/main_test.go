package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	binaryOnce sync.Once
	binaryDir  string
	binaryPath string
	binaryErr  error
)

// cuteLSPBinary builds cmd/cute-lsp once per test run and returns its path.
func cuteLSPBinary(t testing.TB) string {
	t.Helper()
	binaryOnce.Do(func() {
		binaryDir, binaryErr = os.MkdirTemp("", "cute-lsp-bin")
		if binaryErr != nil {
			return
		}
		binaryPath = filepath.Join(binaryDir, "cute-lsp")
		out, err := exec.Command("go", "build", "-o", binaryPath, "../cmd/cute-lsp").CombinedOutput()
		if err != nil {
			binaryErr = &buildError{err, string(out)}
		}
	})
	if binaryErr != nil {
		t.Fatalf("building cute-lsp: %v", binaryErr)
	}
	return binaryPath
}

type buildError struct {
	err    error
	output string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.output }

func TestMain(m *testing.M) {
	code := m.Run()
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}
