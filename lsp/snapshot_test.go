package lsp

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestOffsetPositionRoundTrip(t *testing.T) {
	text := "a = é😀 (1)\r\nb\rc = \"日本\"\n\nlast😀"
	for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
		s := NewSnapshot("u", 1, KindSheet, text)
		for off := 0; off <= len(text); off++ {
			if off < len(text) && !utf8.RuneStart(text[off]) {
				continue
			}
			if off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n' {
				continue // inside a CRLF: not a character boundary of any line
			}
			p := s.Position(off, enc)
			if back := s.Offset(p, enc); back != off {
				t.Errorf("%v: offset %d -> %+v -> %d", enc, off, p, back)
			}
		}
	}
}

// characters counts a prefix of a line in an encoding, independently of the
// snapshot's code.
func characters(prefix string, enc Encoding) int {
	switch enc {
	case UTF8:
		return len(prefix)
	case UTF32:
		return utf8.RuneCountInString(prefix)
	}
	return len(utf16.Encode([]rune(prefix)))
}

func TestPositionCountsEncodingUnits(t *testing.T) {
	line := "x = \"é😀日\" + tile"
	s := NewSnapshot("u", 1, KindSheet, "first\n"+line+"\n")
	off := 6 + strings.Index(line, "tile")
	for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
		want := characters(line[:strings.Index(line, "tile")], enc)
		if p := s.Position(off, enc); p != (Position{1, want}) {
			t.Errorf("%v: Position = %+v, want {1 %d}", enc, p, want)
		}
	}
}

func TestLinesAndClamping(t *testing.T) {
	s := NewSnapshot("u", 1, KindSheet, "ab\r\ncd\ref\n")
	if s.LineCount() != 4 || s.Line(0) != "ab" || s.Line(1) != "cd" || s.Line(2) != "ef" || s.Line(3) != "" {
		t.Fatalf("lines: %d %q %q %q", s.LineCount(), s.Line(0), s.Line(1), s.Line(2))
	}
	for _, tc := range []struct {
		p    Position
		enc  Encoding
		want int
	}{
		{Position{0, 99}, UTF16, 2},          // past the line's end: the end, before the CRLF
		{Position{1, 5}, UTF8, 6},            // past the end before a lone CR
		{Position{9, 0}, UTF16, len(s.Text)}, // past the last line
		{Position{-1, 3}, UTF16, 0},
		{Position{0, -4}, UTF16, 0},
	} {
		if got := s.Offset(tc.p, tc.enc); got != tc.want {
			t.Errorf("Offset(%+v, %v) = %d, want %d", tc.p, tc.enc, got, tc.want)
		}
	}
	// A character inside a multi-unit character clamps to its start.
	e := NewSnapshot("u", 1, KindSheet, "😀x")
	if got := e.Offset(Position{0, 1}, UTF16); got != 0 {
		t.Errorf("inside a surrogate pair: %d, want 0", got)
	}
	if got := e.Offset(Position{0, 2}, UTF8); got != 0 {
		t.Errorf("inside a UTF-8 sequence: %d, want 0", got)
	}
	if got := e.Offset(Position{0, 4}, UTF8); got != 4 {
		t.Errorf("after the emoji: %d, want 4", got)
	}
	if p := e.Position(2, UTF16); p != (Position{0, 0}) && p != (Position{0, 1}) {
		t.Errorf("Position inside a character = %+v", p)
	}
}

func TestApplyMatchesModel(t *testing.T) {
	for _, enc := range []Encoding{UTF8, UTF16} {
		model := &textModel{text: strings.Repeat("tile = (4,8):(1,4)\n# é😀\n", 10)}
		snap := NewSnapshot("u", 1, KindSheet, model.text)
		r := rand.New(rand.NewPCG(7, uint64(enc)))
		for i := range 3000 {
			a, b := randomPosition(r, model), randomPosition(r, model)
			text := stressSnippets[r.IntN(len(stressSnippets))]
			before := model.text
			model.apply(a, b, text)
			// The model counts UTF-8 bytes; convert its positions for UTF-16.
			ca, cb := toEnc(before, a, enc), toEnc(before, b, enc)
			snap = snap.Apply(int32(i+2), []Change{{Start: ca, End: cb, Text: text}}, enc)
			if snap.Text != model.text {
				t.Fatalf("%v step %d: edit %v-%v %q\nbefore %q\ngot    %q\nwant   %q", enc, i, a, b, text, before, snap.Text, model.text)
			}
		}
	}
	// Several changes in one notification apply in order.
	s := NewSnapshot("u", 1, KindSheet, "abc\ndef")
	s = s.Apply(2, []Change{{Start: Position{0, 1}, End: Position{0, 2}, Text: "X\nY"}, {Start: Position{2, 0}, End: Position{2, 3}, Text: "Z"}, {Whole: true, Text: "whole"}, {Start: Position{0, 5}, End: Position{0, 5}, Text: "!"}}, UTF16)
	if s.Text != "whole!" || s.Version != 2 {
		t.Errorf("sequence of changes = %q v%d", s.Text, s.Version)
	}
}

// toEnc converts a UTF-8 position of the model to enc, keeping positions
// past a line's end past it.
func toEnc(text string, p lspPos, enc Encoding) Position {
	lines := strings.Split(text, "\n")
	if enc == UTF8 || p.Line >= len(lines) || p.Character > len(lines[p.Line]) {
		return Position{p.Line, p.Character}
	}
	return Position{p.Line, characters(lines[p.Line][:p.Character], enc)}
}

func TestKindOf(t *testing.T) {
	for uri, want := range map[string]Kind{
		"file:///a/t.cute": KindSheet, "file:///a/t.mlir": KindMLIR, "file:///k.cu": KindCpp, "file:///k.cuh": KindCpp,
		"file:///k.cpp": KindCpp, "file:///k.hpp": KindCpp, "file:///k.h": KindCpp, "file:///k.cc": KindCpp,
		"file:///k.py": KindPython, "file:///README": KindUnknown,
	} {
		if got := KindOf(uri, ""); got != want {
			t.Errorf("KindOf(%s) = %v, want %v", uri, got, want)
		}
	}
	if KindOf("untitled:1", "cute") != KindSheet {
		t.Error("language id cute not recognized")
	}
}

// TestDiskSnapshotsAreKept: a sheet on disk is read once while its size
// and modification time stay, and read again when it changes.
func TestDiskSnapshotsAreKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.cute")
	if err := os.WriteFile(path, []byte("A = 8:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewServer(Options{})
	u := fileURI(path)
	read := func(path string) *Snapshot {
		snap, _, _ := s.loadDisk(u, path)
		return snap
	}
	first := read(path)
	if first == nil || first.Text != "A = 8:1\n" {
		t.Fatalf("first read: %+v", first)
	}
	if again := read(path); again != first {
		t.Errorf("an unchanged file was read again")
	}
	if err := os.WriteFile(path, []byte("A = 16:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed := read(path); changed == first || changed.Text != "A = 16:1\n" {
		t.Errorf("a changed file gives %+v", changed)
	}
	if read(filepath.Join(dir, "missing.cute")) != nil || read(dir) != nil {
		t.Errorf("a missing file or a directory gives a snapshot")
	}
}
