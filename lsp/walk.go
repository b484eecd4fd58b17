package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
)

// walkLimits bound one workspace walk: a folder holding the whole disk, a
// checkout with a million files or a slow network mount must not stall a
// pull or fill memory.
type walkLimits struct {
	entries int           // directory entries looked at
	files   int           // sheets reported
	bytes   int64         // bytes of sheets read
	budget  time.Duration // time spent walking folders (not in visit)
}

var defaultWalk = walkLimits{entries: 100000, files: 2000, bytes: 32 << 20, budget: 5 * time.Second}

func (l walkLimits) orDefaults() walkLimits {
	if l.entries == 0 {
		l.entries = defaultWalk.entries
	}
	if l.files == 0 {
		l.files = defaultWalk.files
	}
	if l.bytes == 0 {
		l.bytes = defaultWalk.bytes
	}
	if l.budget == 0 {
		l.budget = defaultWalk.budget
	}
	return l
}

// skippedDir reports whether a walk leaves out a folder, as editors' file
// searches do: hidden ones (.git, .cache, ...), installed packages, and
// build outputs, which hold copies of sources, not sources.
func skippedDir(name string) bool {
	if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "bazel-") {
		return true
	}
	switch name {
	case "node_modules", "bower_components", "__pycache__", "site-packages",
		"build", "_build", "CMakeFiles", "dist":
		return true
	}
	return false
}

// walkSheets calls visit with the path of each .cute file under roots,
// within lim; visit returns the bytes it read. The time budget counts the
// walk alone: what visit does is bounded by files and bytes, and by ctx,
// which the client cancels. It returns why it stopped early ("" when it
// saw everything).
func walkSheets(ctx context.Context, roots []string, lim walkLimits, visit func(path string) (read int64)) (cut string) {
	lim = lim.orDefaults()
	start := time.Now()
	var visiting time.Duration // spent in visit, not counted
	entries, files := 0, 0
	var read int64
	stop := fmt.Errorf("stop")
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			entries++
			switch {
			case entries > lim.entries:
				cut = fmt.Sprintf("looked at %d entries", lim.entries)
			case files >= lim.files:
				cut = fmt.Sprintf("found %d sheets", lim.files)
			case read >= lim.bytes:
				cut = fmt.Sprintf("read %d bytes", lim.bytes)
			case time.Since(start)-visiting > lim.budget:
				cut = fmt.Sprintf("took %v", lim.budget)
			}
			if cut != "" {
				return stop
			}
			if err != nil {
				// An unreadable folder is left out, the rest walked.
				if d != nil && d.IsDir() && path != root {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != root && skippedDir(d.Name()) || isSystemDir(path) {
					return fs.SkipDir
				}
				return nil
			}
			if KindOf(d.Name(), "") != KindSheet {
				return nil
			}
			files++
			t := time.Now()
			read += visit(path)
			visiting += time.Since(t)
			return nil
		})
		if err == stop || ctx.Err() != nil {
			break
		}
	}
	return cut
}

func isSystemDir(path string) bool {
	for _, dir := range systemDirs {
		if within(filepath.Clean(path), dir) {
			return true
		}
	}
	return false
}
