package lsp

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// protocolPublishDiagnostics is what the server published before
// appendPublishDiagnostics: the params as protocol values, encoded by
// protocol.
func protocolPublishDiagnostics(t testing.TB, snap *Snapshot, enc Encoding, findings []analysis.Finding) []byte {
	b, err := protocol.AppendMarshal(nil, &protocol.PublishDiagnosticsParams{
		URI:         uri.URI(snap.URI),
		Version:     protocol.NewOptional(snap.Version),
		Diagnostics: toDiagnostics(snap, enc, findings),
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkPublishDiagnostics(t testing.TB, snap *Snapshot, enc Encoding, findings []analysis.Finding) {
	got := appendPublishDiagnostics(nil, snap, enc, findings)
	if want := protocolPublishDiagnostics(t, snap, enc, findings); !bytes.Equal(got, want) {
		t.Fatalf("%s, encoding %d: appendPublishDiagnostics wrote\n%s\nprotocol writes\n%s", snap.URI, enc, got, want)
	}
}

// TestAppendPublishDiagnostics: the params written straight from the
// findings are protocol's bytes, for the findings of every marker file and
// of the peer sheet in each position encoding, and for findings whose
// strings protocol escapes or replaces.
func TestAppendPublishDiagnostics(t *testing.T) {
	a := NewAnalyzed()
	files, _ := filepath.Glob(filepath.Join(markerDir, "*"))
	texts := map[string]string{"file:///peer.cute": peerSheet(500), "file:///gen.cute": generatedSheet(600)}
	for _, f := range files {
		if filepath.Ext(f) == ".golden" || filepath.Ext(f) == ".md" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts["file:///markers/"+filepath.Base(f)] = string(data)
	}
	findings := 0
	for u, text := range texts {
		snap := NewSnapshot(u, 3, KindOf(u, ""), text)
		fs := findingsOf(a, snap)
		findings += len(fs)
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			checkPublishDiagnostics(t, snap, enc, fs)
		}
	}
	if findings < 100 {
		t.Fatalf("only %d findings compared", findings)
	}

	// Strings protocol escapes or mends, severities it leaves out, ranges
	// past the text, related locations.
	text := "a = é😀 (1,2)\n\tb = \"x\"\n"
	at := func(off int) grammar.Position { return grammar.Position{Offset: int32(off)} }
	odd := []analysis.Finding{
		{Range: grammar.Range{Pos: at(4), End: at(12)}, Severity: analysis.SeverityWarning, Code: "c\"o\\de", Message: "quote \" backslash \\ tab \t newline \n nul \x00 del \x7f"},
		{Range: grammar.Range{Pos: at(0), End: at(1)}, Severity: 0, Message: "html <>& and U+2028 \u2028 and é😀"},
		{Range: grammar.Range{Pos: at(0), End: at(1)}, Severity: 9, Code: "", Message: "invalid UTF-8 \xff\xfe end"},
		{Range: grammar.Range{Pos: at(14), End: at(400)}, Severity: analysis.SeverityHint, Code: "x", Message: "",
			Related: []analysis.Related{{Range: grammar.Range{Pos: at(4), End: at(6)}, Message: "here \x01"}, {Range: grammar.Range{Pos: at(0), End: at(1)}, Message: "there"}}},
		{Range: grammar.Range{Pos: at(0), End: at(0)}, Severity: analysis.SeverityError, Code: "internal-error", Message: "same start, later"},
	}
	for _, u := range []string{"file:///odd.cute", "file:///a%20b/odd \"q\".cute", "untitled:é😀"} {
		for _, version := range []int32{0, -1, 1 << 30} {
			snap := NewSnapshot(u, version, KindSheet, text)
			for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
				checkPublishDiagnostics(t, snap, enc, odd)
				checkPublishDiagnostics(t, snap, enc, nil)
			}
		}
	}
}

// TestLineCursor: lineCursor places every offset as Snapshot.Position
// does, whether the offsets come in order, a few lines apart, far apart
// or backwards, in texts with CRLF and lone CR line breaks, multi-byte
// characters, empty lines and no final line break.
func TestLineCursor(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	texts := []string{"", "x", "\n\n\n", "a = (1,2)\r\nb = é😀\r\n\r\nc\rd\n", peerSheet(300), generatedSheet(200) + "tail"}
	for _, text := range texts {
		snap := NewSnapshot("file:///l.cute", 1, KindSheet, text)
		offsets := make([]int, 400)
		for i := range offsets {
			offsets[i] = r.IntN(len(text)+3) - 1
		}
		sorted := slices.Clone(offsets)
		slices.Sort(sorted)
		close := make([]int, len(offsets)) // a few lines at a time, some back
		for i := range close {
			if i > 0 {
				close[i] = close[i-1] + r.IntN(120) - 20
			}
		}
		for _, order := range [][]int{offsets, sorted, close} {
			for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
				c := lineCursor{snap: snap}
				for _, off := range order {
					if got, want := c.position(off, enc), snap.Position(off, enc); got != want {
						t.Fatalf("offset %d of %q (encoding %d): lineCursor %v, Position %v", off, text[:min(len(text), 40)], enc, got, want)
					}
				}
			}
		}
	}
}

// FuzzAppendPublishDiagnostics: whatever the strings and offsets of a
// finding, the params written straight are protocol's bytes.
//
//	go test ./lsp -run '^$' -fuzz FuzzAppendPublishDiagnostics -fuzztime 60s
func FuzzAppendPublishDiagnostics(f *testing.F) {
	f.Add("a = (1,2)\né😀\n", "file:///x.cute", "code", "message", "related", uint16(0), uint16(3), uint8(2))
	f.Add("\r\n\t\"", "untitled:\x00", "", "\xff", "\u2028", uint16(9), uint16(1), uint8(7))
	f.Fuzz(func(t *testing.T, text, u, code, msg, rel string, pos, end uint16, sev uint8) {
		snap := NewSnapshot(u, 1, KindSheet, text)
		at := func(off uint16) grammar.Position { return grammar.Position{Offset: int32(off)} }
		fs := []analysis.Finding{
			{Range: grammar.Range{Pos: at(pos), End: at(end)}, Severity: analysis.Severity(sev % 6), Code: code, Message: msg,
				Related: []analysis.Related{{Range: grammar.Range{Pos: at(end), End: at(pos)}, Message: rel}}},
			{Range: grammar.Range{Pos: at(end), End: at(end)}, Severity: analysis.SeverityInfo, Code: rel, Message: code},
		}
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			checkPublishDiagnostics(t, snap, enc, fs)
		}
	})
}

// BenchmarkPublishDiagnostics: the params of the 5,000-line peer sheet's
// diagnostics, written straight (in a buffer sized as publish sizes it) and through
// protocol values.
func BenchmarkPublishDiagnostics(b *testing.B) {
	snap := NewSnapshot("file:///peer.cute", 1, KindSheet, peerSheet(benchLines))
	fs := findingsOf(NewAnalyzed(), snap)
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			appendPublishDiagnostics(make([]byte, 0, 256+len(fs)*256), snap, UTF16, fs) // sized as publish sizes it
		}
	})
	b.Run("protocol", func(b *testing.B) {
		for b.Loop() {
			protocolPublishDiagnostics(b, snap, UTF16, fs)
		}
	})
}
