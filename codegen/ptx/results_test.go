package ptx

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

func readTSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}

// The committed device results (testdata/ptx) must cover exactly what the
// code lowers today: a change to the lowering means a new device run.
func TestDeviceResultsCoverEveryLoweredAtom(t *testing.T) {
	mods, skips := All()
	assembled := map[string][]string{}
	for _, row := range readTSV(t, "../../testdata/ptx/assembled.tsv") {
		if len(row) != 3 {
			t.Fatalf("assembled.tsv row %q", row)
		}
		assembled[row[0]] = row
	}
	if len(assembled) != len(mods) {
		t.Errorf("assembled.tsv names %d atoms, %d are lowered", len(assembled), len(mods))
	}
	for _, m := range mods {
		row, ok := assembled[m.Name]
		switch {
		case !ok:
			t.Errorf("%s: lowered but not in assembled.tsv", m.Name)
		case row[1] != m.Target:
			t.Errorf("%s: assembled for %s, lowered for %s", m.Name, row[1], m.Target)
		case row[2] != "ok":
			t.Errorf("%s: ptxas: %s", m.Name, row[2])
		}
	}
	var want, got []string
	for _, s := range skips {
		want = append(want, s.Name+"\t"+s.Reason)
	}
	for _, row := range readTSV(t, "../../testdata/ptx/skipped.tsv") {
		got = append(got, strings.Join(row, "\t"))
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("skipped.tsv:\n%s\nAll skips:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ran := map[string]string{}
	for _, row := range readTSV(t, "../../testdata/ptx/ran.tsv") {
		ran[row[0]] = row[1]
	}
	runnable := 0
	for _, m := range mods {
		a, err := atom.LookupMMA(m.Name)
		if err != nil {
			continue
		}
		if _, err := Reference(a); err != nil {
			continue
		}
		runnable++
		if ran[m.Name] != "ok" {
			t.Errorf("%s: reference run %q", m.Name, ran[m.Name])
		}
	}
	if runnable != len(ran) || runnable < 40 {
		t.Errorf("%d atoms have a reference run, ran.tsv has %d", runnable, len(ran))
	}
}
