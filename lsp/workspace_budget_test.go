//go:build unix

package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

type workspaceItem struct {
	URI      string `json:"uri"`
	Kind     string `json:"kind"`
	ResultID string `json:"resultId"`
}

// TestWorkspacePullsAreBudgeted: over a workspace larger than one pull's
// budget, each pull analyzes what fits (at least one file), later pulls
// answer the files reported before as unchanged and go on with the rest,
// and every file is reported in the end, once in full.
func TestWorkspacePullsAreBudgeted(t *testing.T) {
	ws := t.TempDir()
	const files = 5
	for i := range files {
		text := fmt.Sprintf("x%d = (4,2):(1,2,3)\n", i) // one finding each
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("s%d.cute", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startInWorkspace(t, ws)
	s.server.workspaceBudget = 1 // every pull is over budget after its first file
	previous := map[string]string{}
	fullTimes := map[string]int{}
	for pull := 1; len(fullTimes) < files; pull++ {
		if pull > files {
			t.Fatalf("after %d pulls only %d of %d files reported", files, len(fullTimes), files)
		}
		var ids []map[string]string
		for u, id := range previous {
			ids = append(ids, map[string]string{"uri": u, "value": id})
		}
		var report struct{ Items []workspaceItem }
		s.call("workspace/diagnostic", map[string]any{"previousResultIds": ids}, &report)
		full := 0
		for _, it := range report.Items {
			switch it.Kind {
			case "full":
				full++
				fullTimes[it.URI]++
				previous[it.URI] = it.ResultID
			case "unchanged":
				if previous[it.URI] != it.ResultID {
					t.Errorf("pull %d: %s unchanged with id %s, reported %s", pull, it.URI, it.ResultID, previous[it.URI])
				}
			}
		}
		if full != 1 {
			t.Errorf("pull %d: %d files analyzed, want 1 (the budget is spent after the first)", pull, full)
		}
		if len(report.Items) != len(previous) {
			t.Errorf("pull %d: %d items, want every file reported so far (%d)", pull, len(report.Items), len(previous))
		}
	}
	for u, n := range fullTimes {
		if n != 1 {
			t.Errorf("%s reported in full %d times", u, n)
		}
	}
	// With the default budget the same workspace fits in one pull.
	s2 := startInWorkspace(t, ws)
	var report struct{ Items []workspaceItem }
	s2.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &report)
	if len(report.Items) != files {
		t.Errorf("default budget: %d of %d files in the first pull", len(report.Items), files)
	}
}
