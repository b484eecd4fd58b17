package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
)

// cutlassRoot is the CUTLASS checkout that tests and benchmarks over real
// files read: CUTLASS in the environment, /work/cutlass by default.
func cutlassRoot() string {
	if root := os.Getenv("CUTLASS"); root != "" {
		return root
	}
	return "/work/cutlass"
}

// eachCuteFile calls fn with the path and text of every file of the
// checkout's include/cute and examples/cute (none where there is no
// checkout; a file that cannot be read is passed over).
func eachCuteFile(fn func(path string, src []byte)) {
	for _, dir := range []string{"include/cute", "examples/cute"} {
		filepath.WalkDir(filepath.Join(cutlassRoot(), dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if src, err := os.ReadFile(p); err == nil {
					fn(p, src)
				}
			}
			return nil
		})
	}
}
