//go:build unix

package lsp

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// secretSheet parses as a sheet whose diagnostics would quote its text.
const secretSheet = "x = (2,2) hunter2\n"

// workspaceWithSecrets makes a workspace folder holding a.cute (broken, so
// it has diagnostics), and beside it a folder the workspace does not
// include holding secret.cute and secret.txt.
func workspaceWithSecrets(t *testing.T) (ws, outside string) {
	t.Helper()
	base := t.TempDir()
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for path, text := range map[string]string{
		filepath.Join(ws, "a.cute"):           brokenSheet,
		filepath.Join(outside, "secret.cute"): secretSheet,
		filepath.Join(outside, "secret.txt"):  secretSheet,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outside
}

func startInWorkspace(t *testing.T, root string) *session {
	t.Helper()
	s := startSession(t, Options{Features: NewAnalyzed()})
	params := map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}}}}
	if root != "" {
		params["rootUri"] = fileURI(root)
	}
	s.call("initialize", params, nil)
	s.notify("initialized", map[string]any{})
	return s
}

// TestUnopenedFilesOutsideTheWorkspaceAreNotRead: a pull or a hover on a
// file the editor has not opened reads it only inside the workspace. Each
// way out (.., an absolute path, a symbolic link, another host, a query
// making any file look like a sheet, a fragment, /proc) gets nothing or a
// clear error, and no answer quotes the file. On main, each URI below was
// read and its diagnostics quoted "hunter2".
func TestUnopenedFilesOutsideTheWorkspaceAreNotRead(t *testing.T) {
	ws, outside := workspaceWithSecrets(t)
	if err := os.Symlink(filepath.Join(outside, "secret.cute"), filepath.Join(ws, "link.cute")); err != nil {
		t.Fatal(err)
	}
	s := startInWorkspace(t, ws)

	// Inside the workspace an unopened file is read.
	var inside struct{ Items []any }
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(ws, "a.cute"))}}, &inside)
	if len(inside.Items) == 0 {
		t.Fatalf("the unopened a.cute inside the workspace got no diagnostics")
	}

	secret := filepath.Join(outside, "secret.cute")
	quiet := []string{
		"file://" + ws + "/../outside/secret.cute",
		fileURI(secret),
		fileURI(filepath.Join(ws, "link.cute")),
		"file:///proc/self/pagemap",
		"file:///proc/self/environ.cute",
		"file:///dev/zero.cute",
		"file:relative/a.cute", // decoded as file:///relative/a.cute
	}
	refused := []string{
		"file://otherhost" + secret,
		fileURI(filepath.Join(outside, "secret.txt")) + "?.cute",
		fileURI(filepath.Join(ws, "a.cute")) + "?x=1",
		fileURI(filepath.Join(outside, "secret.txt")) + "#.cute",
	}
	for _, u := range append(quiet, refused...) {
		for _, method := range []string{"textDocument/diagnostic", "textDocument/hover"} {
			params := map[string]any{"textDocument": map[string]any{"uri": u}, "position": lspPos{0, 1}}
			m := s.answer(s.send(method, params))
			if strings.Contains(string(m.Result), "hunter2") || m.Error != nil && strings.Contains(m.Error.Message, "hunter2") {
				t.Errorf("%s on %s quotes the file: %s", method, u, m.Result)
			}
			isRefused := false
			for _, r := range refused {
				isRefused = isRefused || r == u
			}
			if method == "textDocument/diagnostic" && isRefused {
				if m.Error == nil || m.Error.Code != -32602 {
					t.Errorf("diagnostic on %s: %s, want an InvalidParams error", u, m.Result)
				}
			} else if method == "textDocument/diagnostic" && (m.Error != nil || strings.Contains(string(m.Result), `"message"`)) {
				t.Errorf("diagnostic on %s: %s %v, want an empty report", u, m.Result, m.Error)
			}
		}
	}
}

// TestNoWorkspaceReadsOnlyOpenDocuments: with no workspace folder the
// server reads nothing from disk (on main it read any path).
func TestNoWorkspaceReadsOnlyOpenDocuments(t *testing.T) {
	ws, _ := workspaceWithSecrets(t)
	s := startInWorkspace(t, "")
	u := fileURI(filepath.Join(ws, "a.cute"))
	var report struct{ Items []any }
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}}, &report)
	if len(report.Items) != 0 {
		t.Errorf("an unopened file was read with no workspace: %v", report.Items)
	}
	s.open(u, brokenSheet)
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}}, &report)
	if len(report.Items) == 0 {
		t.Errorf("the open document got no diagnostics")
	}
}

// TestSpecialFilesAreNotRead: a FIFO, a link to a device and a sparse file
// past the size limit, all named like sheets inside the workspace, are
// answered at once with nothing, by a pull and by a workspace pull. On main
// the FIFO hung the request and /dev/zero read until memory ran out.
func TestSpecialFilesAreNotRead(t *testing.T) {
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo.cute"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(ws, "zero.cute")); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(filepath.Join(ws, "sparse.cute"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	sparse.Close()
	os.WriteFile(filepath.Join(ws, "ok.cute"), []byte(brokenSheet), 0o644)
	s := startInWorkspace(t, ws)
	for _, name := range []string{"fifo.cute", "zero.cute", "sparse.cute"} {
		var report struct{ Items []any }
		s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(ws, name))}}, &report)
		if len(report.Items) != 0 {
			t.Errorf("%s: %v", name, report.Items)
		}
	}
	var all struct{ Items []struct{ URI string } }
	s.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &all)
	if len(all.Items) != 1 || !strings.HasSuffix(all.Items[0].URI, "/ok.cute") {
		t.Errorf("workspace reports %+v, want ok.cute alone", all.Items)
	}
}

// TestReadRegularFileRefusals: the reader behind every disk read refuses
// what is not a regular file of bounded size, without blocking.
func TestReadRegularFileRefusals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 101), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(big, link)
	for path, want := range map[string]string{fifo: "a FIFO", "/dev/null": "a character device", dir: "a directory", big: "over the limit"} {
		_, _, err := ReadRegularFile(path, 100)
		if _, ok := err.(*SkipError); !ok || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a skip saying %q", path, err, want)
		}
	}
	if _, _, err := readNoFollow(link, 1000); err == nil {
		t.Errorf("readNoFollow followed a symbolic link")
	}
	if data, _, err := ReadRegularFile(link, 1000); err != nil || len(data) != 101 {
		t.Errorf("ReadRegularFile(link) = %d bytes, %v", len(data), err)
	}
	// /proc files claim a size of 0: the bound holds on what is read.
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if _, _, err := ReadRegularFile("/proc/self/status", 10); err == nil {
			t.Errorf("read past the limit of a file that claims size 0")
		}
	}
}

// TestWorkspaceWalkIsBounded: a workspace rooted at / stops at the walk's
// bounds and never enters /proc; hidden and build folders are skipped. On
// main the walk of / ran for 14 s.
func TestWorkspaceWalkIsBounded(t *testing.T) {
	var visited []string
	cut := walkSheets(context.Background(), []string{"/"}, walkLimits{entries: 3000}, func(path string) int64 {
		visited = append(visited, path)
		return 0
	})
	if cut == "" && len(visited) == 0 {
		t.Logf("the walk of / saw everything within the bounds")
	}
	for _, p := range visited {
		if isSystemDir(p) {
			t.Errorf("walked into %s", p)
		}
	}

	ws := t.TempDir()
	for _, name := range []string{"a.cute", ".git/b.cute", "node_modules/c.cute", "build/d.cute", "sub/e.cute", "f.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755)
		os.WriteFile(filepath.Join(ws, name), nil, 0o644)
	}
	visited = nil
	cut = walkSheets(context.Background(), []string{ws}, walkLimits{}, func(path string) int64 {
		rel, _ := filepath.Rel(ws, path)
		visited = append(visited, rel)
		return 0
	})
	if cut != "" || strings.Join(visited, " ") != "a.cute sub/e.cute" {
		t.Errorf("walk = %v (cut %q), want a.cute sub/e.cute", visited, cut)
	}
	if cut := walkSheets(context.Background(), []string{"/"}, walkLimits{budget: time.Nanosecond}, func(string) int64 { return 0 }); !strings.Contains(cut, "took") {
		t.Errorf("a walk of / with a budget of 1 ns stopped with %q", cut)
	}
	// Time spent analyzing (in visit) does not count against the walk.
	if cut := walkSheets(context.Background(), []string{ws}, walkLimits{budget: 250 * time.Millisecond}, func(string) int64 {
		time.Sleep(150 * time.Millisecond)
		return 0
	}); cut != "" {
		t.Errorf("slow visits cut the walk: %q", cut)
	}
	visited = nil
	if cut := walkSheets(context.Background(), []string{ws}, walkLimits{files: 1}, func(path string) int64 {
		visited = append(visited, path)
		return 0
	}); cut == "" || len(visited) != 1 {
		t.Errorf("a walk bounded to one file visited %d (cut %q)", len(visited), cut)
	}
}

// TestDiskCacheIsBounded: many distinct URIs for one file hold one
// snapshot, and many files keep the estimated bytes under the bound; the
// features are told to drop what they keep for the URIs let go. On main
// every URI kept its own snapshot and statement cache (11 MB each for a
// 155 kB sheet) and nothing was ever dropped.
func TestDiskCacheIsBounded(t *testing.T) {
	ws := t.TempDir()
	text := generatedSheet(200)
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(ws, "f"+strconv.Itoa(i)+".cute"), []byte(text), 0o644)
	}
	features := NewAnalyzed()
	s := NewServer(Options{Features: features, Log: discard{}})
	s.roots = []string{ws}
	s.disk.maxCost = int64(len(text)) * costPerTextByte * 5
	for i := 0; i < 100; i++ {
		u := "file://" + ws + strings.Repeat("/.", i) + "/f0.cute"
		snap := s.snapshot(u)
		if snap == nil {
			t.Fatalf("%s not read", u)
		}
		s.findings(snap)
	}
	if cost, n := s.disk.usage(); n != 1 {
		t.Errorf("100 URIs of one file keep %d snapshots (%d bytes)", n, cost)
	}
	for i := 0; i < 40; i++ {
		s.findings(s.snapshot(fileURI(filepath.Join(ws, "f"+strconv.Itoa(i)+".cute"))))
	}
	if cost, n := s.disk.usage(); cost > s.disk.maxCost || n > 5 {
		t.Errorf("40 files keep %d snapshots, %d bytes, over the bound of %d", n, cost, s.disk.maxCost)
	}
	features.mu.Lock()
	kept := len(features.caches)
	features.mu.Unlock()
	if kept > 6 {
		t.Errorf("the features keep statement caches for %d URIs, want at most the 5 snapshots kept (and one in use)", kept)
	}
	// A file the client reports deleted is let go at once.
	before, _ := s.disk.usage()
	didChangeWatchedFiles(context.Background(), s, []byte(`{"changes":[{"uri":"`+fileURI(filepath.Join(ws, "f38.cute"))+`","type":3}]}`))
	if after, _ := s.disk.usage(); after >= before {
		t.Errorf("a deleted file reported by the client is still kept (%d bytes, %d before)", after, before)
	}
	// A deleted file is let go on its next use.
	os.Remove(filepath.Join(ws, "f39.cute"))
	if s.snapshot(fileURI(filepath.Join(ws, "f39.cute"))) != nil {
		t.Errorf("a deleted file still gives a snapshot")
	}
	if _, n := s.disk.usage(); n > 4 {
		t.Errorf("the deleted file's snapshot is still kept (%d kept)", n)
	}
}

// TestWorkspaceDiagnosticsHeapStaysFlat: the heap after workspace pulls
// over many sheets is bounded by the cache, not by the workspace. On main
// 15 MB of sheets left about a gigabyte.
func TestWorkspaceDiagnosticsHeapStaysFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes 1 MB of sheets")
	}
	ws := t.TempDir()
	text := generatedSheet(600) // about 24 kB
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(ws, "f"+strconv.Itoa(i)+".cute"), []byte(text), 0o644)
	}
	s := NewServer(Options{Features: NewAnalyzed(), Log: discard{}})
	s.roots = []string{ws}
	s.disk.maxCost = 4 << 20
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	_, err := workspaceDiagnostic(context.Background(), s, []byte(`{"previousResultIds":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	grown := int64(heap()) - int64(base)
	runtime.KeepAlive(s) // what the server keeps is what is measured
	// The bound is what the cache may hold by its estimate, twice over for
	// the estimate's error, plus room for the runtime's own.
	if limit := 2*s.disk.maxCost + 8<<20; grown > limit {
		t.Errorf("heap grew by %d MB after workspace pulls over %d kB of sheets, want under %d MB", grown>>20, 40*len(text)>>10, limit>>20)
	}
	t.Logf("heap grew by %.1f MB", float64(grown)/(1<<20))
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// BenchmarkWorkspaceDiagnosticsHeap reports the heap left after a
// workspace pull over CUTE_BENCH_SHEET_MB (default 15) megabytes of
// generated sheets (heap-MB) under the default cache bound; with
// CUTE_BENCH_KEEP_ALL=1 everything is kept, and heap-B/text-B is then
// costPerTextByte's measure. By hand:
// go test ./lsp -run '^$' -bench WorkspaceDiagnosticsHeap -benchtime 1x
func BenchmarkWorkspaceDiagnosticsHeap(b *testing.B) {
	mb := 15
	if v, err := strconv.Atoi(os.Getenv("CUTE_BENCH_SHEET_MB")); err == nil {
		mb = v
	}
	ws := b.TempDir()
	text := generatedSheet(2500)
	files := mb << 20 / len(text)
	for i := 0; i < files; i++ {
		os.WriteFile(filepath.Join(ws, "f"+strconv.Itoa(i)+".cute"), []byte(text), 0o644)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for i := 0; i < b.N; i++ {
		s := NewServer(Options{Features: NewAnalyzed(), Log: discard{}})
		s.roots = []string{ws}
		s.disk.walk.files = files + 1
		s.disk.walk.bytes = int64(mb+1) << 20
		s.disk.walk.budget = time.Hour
		if os.Getenv("CUTE_BENCH_KEEP_ALL") != "" {
			s.disk.maxCost = 1 << 40
		}
		base := heap()
		if _, err := workspaceDiagnostic(context.Background(), s, []byte(`{"previousResultIds":[]}`)); err != nil {
			b.Fatal(err)
		}
		grown := float64(int64(heap())-int64(base)) / (1 << 20)
		runtime.KeepAlive(s)
		b.ReportMetric(grown, "heap-MB")
		b.ReportMetric(grown*(1<<20)/float64(files*len(text)), "heap-B/text-B")
	}
}
