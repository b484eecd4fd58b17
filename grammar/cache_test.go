package grammar

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// everyKind is a sheet with every node kind in it.
const everyKind = `# a comment
A = (2,(_2,?)):(4,(?{i64},_))
B = composition(Sw<3,4,3>{}, (8,64):(64,1)) // tail
C = [(4,8):(1,4);_;32] o SW_3_4_3 o smem_ptr[16b](unset) o (8,64):(64,1)
D = S[(8,2):(4@laneid,1/2@0@1)] + R[2:4@warpid] + 5@warpid
E = !cute.layout<"((2,3),4):((1@0@0,1@1@0),1@1)">
F = !cute.tile<[4:1;8:1]>
G = <8:1, 4:8>
H = LayoutLeft{}
I = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
J = select<1,N>(replace<0>(A, 2:1))
assert A == B
assert coalesce(A) is (8,
  1):(1,8)
logical_divide(A, [2:1;3:1])
X = (4,2:(1,4)
`

// nodeTypes is every type of the AST.
var nodeTypes = []Node{
	&Int{}, &Unknown{}, &Underscore{}, &Name{}, &String{}, &Basis{}, &BasisMode{}, &Tuple{}, &Layout{}, &AngleList{},
	&Swizzle{}, &Pointer{}, &Composed{}, &Tiler{}, &TirxLayout{}, &TirxPart{}, &MLIRType{}, &Call{},
	&Binding{}, &Assert{}, &ExprStmt{}, &BadStmt{}, &Comment{},
}

// TestEverySheetKindHasEveryNodeType: the sheet the cache's tests start
// from (everyKind) holds a node of every type (nodeTypes, which
// TestNodeTypesListsEveryNodeType keeps complete).
func TestEveryKindHasEveryNodeType(t *testing.T) {
	f, errs := ParseFile("k.cute", []byte(everyKind))
	if len(errs) != 1 {
		t.Fatalf("errors %v, want the one on the last line", errs)
	}
	seen := map[reflect.Type]bool{}
	for _, s := range f.Statements {
		Inspect(s, func(n Node) bool {
			seen[reflect.TypeOf(n)] = true
			return true
		})
	}
	seen[reflect.TypeOf(&BadStmt{})] = seen[reflect.TypeOf(f.Statements[len(f.Statements)-1])]
	seen[reflect.TypeOf(&Comment{})] = len(f.Comments) > 0
	for _, n := range nodeTypes {
		if !seen[reflect.TypeOf(n)] {
			t.Errorf("the test sheet has no %T", n)
		}
	}
}

// editSheet makes a random edit: a character, a token or a line inserted or
// deleted, or a line duplicated, at a random place.
func editSheet(r *rand.Rand, src string) string {
	pieces := []string{"(", ")", ",", ":", "\n", " ", "A", "B1", "=", "assert ", "==", " is ", "Sw<3,4,3>", "[", "]", ";",
		"@", "1", "_2", "# note\n", "!cute.layout<\"", "\"", "S[", "+", " o ", "é", "?", "{}", "8:1", "\nC = (4,2):(1,4)\n"}
	at := r.IntN(len(src) + 1)
	for at > 0 && at < len(src) && (src[at]&0xC0) == 0x80 {
		at-- // never split a character
	}
	switch r.IntN(5) {
	case 0, 1:
		return src[:at] + pieces[r.IntN(len(pieces))] + src[at:]
	case 2:
		end := min(len(src), at+1+r.IntN(8))
		for end < len(src) && (src[end]&0xC0) == 0x80 {
			end++
		}
		return src[:at] + src[end:]
	case 3:
		// Delete or duplicate a whole line.
		start := strings.LastIndexByte(src[:at], '\n') + 1
		end := strings.IndexByte(src[at:], '\n')
		if end < 0 {
			return src[:start]
		}
		line := src[start : at+end+1]
		if r.IntN(2) == 0 {
			return src[:start] + src[at+end+1:]
		}
		return src[:start] + line + src[start:]
	}
	return src[:at] + "\n" + src[at:]
}

// TestParseFileCachedMatchesFresh: after every edit of random edit
// sequences, the cached parse is the fresh parse, trees, bases, errors and
// comments included; the trees of the earlier parse are left as they were;
// the cache holds no more than the latest sheet's statements.
func TestParseFileCachedMatchesFresh(t *testing.T) {
	base := everyKind + string(sheet5000()[:3000]) + "Z = (1,\n  2):(1,\n  2)\nassert 1 == \n"
	r := rand.New(rand.NewPCG(7, 11))
	for seq := 0; seq < 20; seq++ {
		cache := NewCache()
		src := base
		var prev *File
		var prevSrc string
		for step := 0; step < 25; step++ {
			got, gotErrs := ParseFileCached("e.cute", []byte(src), cache)
			want, wantErrs := ParseFile("e.cute", []byte(src))
			if !reflect.DeepEqual(normalized(got), normalized(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
				t.Fatalf("sequence %d step %d: the cached parse differs from a fresh one on\n%s", seq, step, src)
			}
			for i, s := range got.Statements {
				if b, ok := s.(*BadStmt); ok && !containsError(got.Errors, got.Base(i).Error(b.Err)) {
					t.Fatalf("sequence %d step %d: a bad statement's error is not among the file's", seq, step)
				}
			}
			checkNoSharedNodes(t, got)
			notes := cache.Notes(got, step%3, nil)
			if len(notes) != max(0, len(got.Statements)-step%3) {
				t.Fatalf("sequence %d step %d: %d notes for %d statements from %d", seq, step, len(notes), len(got.Statements), step%3)
			}
			for k, note := range notes {
				i := step%3 + k
				if note.Place == nil || note.At != got.StatementRange(i).Pos {
					t.Fatalf("sequence %d step %d: statement %d's note is %+v, its start %+v", seq, step, i, note, got.StatementRange(i).Pos)
				}
			}
			if n := cache.Len(); n > len(got.Statements) {
				t.Fatalf("sequence %d step %d: the cache holds %d statements, the sheet %d", seq, step, n, len(got.Statements))
			}
			if prev != nil {
				again, _ := ParseFile("e.cute", []byte(prevSrc))
				if !reflect.DeepEqual(normalized(prev), normalized(again)) {
					t.Fatalf("sequence %d step %d: a later parse changed the trees of an earlier one", seq, step)
				}
			}
			prev, prevSrc = got, src
			for k := 1 + r.IntN(3); k > 0; k-- {
				src = editSheet(r, src)
			}
			if step%10 == 9 { // a large change: a cut and a paste
				src = src[:r.IntN(len(src)+1)] + base[r.IntN(len(base)):]
				for len(src) > 0 && !utf8.ValidString(src) {
					src = src[1:]
				}
			}
		}
	}
}

// normalized is f with an empty list of statements, bases, comments or
// errors nil, as a fresh parse of a sheet without any has it.
func normalized(f *File) *File {
	c := *f
	if len(c.Statements) == 0 {
		c.Statements, c.bases = nil, nil
	}
	if len(c.Comments) == 0 {
		c.Comments = nil
	}
	if len(c.Errors) == 0 {
		c.Errors = nil
	}
	return &c
}

// containsError reports whether errs holds an error equal to e.
func containsError(errs []*Error, e *Error) bool {
	for _, x := range errs {
		if *x == *e {
			return true
		}
	}
	return false
}

func TestParseFileCachedReuses(t *testing.T) {
	cache := NewCache()
	src := "A = (4,2):(1,4)\nB = coalesce(A)\nassert A == A\nassert A == A\n"
	f1, _ := ParseFileCached("r.cute", []byte(src), cache)
	f2, _ := ParseFileCached("r.cute", []byte(src), cache)
	for i := range f1.Statements {
		if f1.Statements[i] != f2.Statements[i] {
			t.Errorf("statement %d at the same place was parsed again", i)
		}
	}
	f3, _ := ParseFileCached("r.cute", []byte("# moved\n"+src), cache)
	if got := f3.Position(1, f3.Statements[1].(*Binding).Value.Span().Pos); got != (Position{Offset: 28, Line: 3, Column: 5}) {
		t.Errorf("a moved statement is at %+v", got)
	}
	for i := range f3.Statements {
		if f3.Statements[i] != f2.Statements[i] {
			t.Errorf("moved statement %d was parsed again, not taken as it was", i)
		}
	}
	if n := cache.Len(); n != 4 {
		t.Errorf("the cache holds %d statements, want 4", n)
	}
}

// BenchmarkParseSheet5000Edit re-parses the 5,000-line sheet with a cache
// after a one-character edit on one line, alternating with the original.
func BenchmarkParseSheet5000Edit(b *testing.B) {
	src := sheet5000()
	at := len(src) / 2
	edited := append(append(append([]byte{}, src[:at]...), 'x'), src[at:]...)
	cache := NewCache()
	ParseFileCached("bench.cute", src, cache)
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		s := src
		if i%2 == 0 {
			s = edited
		}
		ParseFileCached("bench.cute", s, cache)
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkParseSheet5000Unchanged re-parses the 5,000-line sheet, unchanged,
// with a cache: the floor of a cached parse.
func BenchmarkParseSheet5000Unchanged(b *testing.B) {
	src := sheet5000()
	cache := NewCache()
	ParseFileCached("bench.cute", src, cache)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		ParseFileCached("bench.cute", src, cache)
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// TestEditSpanFindsCommonEnds: the blockwise comparison finds the longest
// common prefix, and the longest common suffix not overlapping it, as a
// byte-by-byte one does.
func TestEditSpanFindsCommonEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab"[r.IntN(2)]
		}
		return string(b)
	}
	for i := 0; i < 500; i++ {
		common := word(r.IntN(1500))
		old := common[:r.IntN(len(common)+1)]
		old += word(r.IntN(3)) + common[len(old):]
		text := common
		if r.IntN(2) == 0 {
			text = word(r.IntN(1200))
		}
		e := newEditSpan(&lastParse{src: old}, text)
		n := min(len(old), len(text))
		p := 0
		for p < n && old[p] == text[p] {
			p++
		}
		s := 0
		for s < n-p && old[len(old)-1-s] == text[len(text)-1-s] {
			s++
		}
		if e.prefix != p || e.oldEnd != len(old)-s || e.newEnd != len(text)-s {
			t.Fatalf("old %d bytes, new %d: got prefix %d ends %d/%d, want %d %d/%d", len(old), len(text), e.prefix, e.oldEnd, e.newEnd, p, len(old)-s, len(text)-s)
		}
	}
}

// TestCacheKeepsNoOldText: what a cache keeps for later parses (keys,
// comments, trees) shares no memory with the text of the parse that made
// it, so a long run of edits does not keep a copy of every version alive.
func TestCacheKeepsNoOldText(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "# stage %d é\n", i)
			continue
		}
		fmt.Fprintf(&b, "a%d = composition(Sw<3,4,3>, (8,%d):(64,1)) // tail\n", i, i)
	}
	lines := strings.Split(b.String(), "\n")
	cache := NewCache()
	r := rand.New(rand.NewPCG(4, 4))
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var early uint64
	for step := 0; step < 220; step++ {
		l := r.IntN(len(lines))
		if step%2 == 0 {
			lines[l] = "x" + lines[l]
		} else if lines[l] != "" {
			lines[l] = lines[l][1:]
		}
		ParseFileCached("t.cute", []byte(strings.Join(lines, "\n")), cache)
		if step == 19 {
			early = heap()
		}
	}
	// Each version's text is about 50 kB: 200 of them kept would be 10 MB.
	late := heap()
	runtime.KeepAlive(cache)
	if late > early+2<<20 {
		t.Fatalf("the heap grew from %d to %d bytes over 200 edits", early, late)
	}
}

// TestCacheKeepsNoOldComments: edits going down the sheet a few lines at a
// time, as typing does, keep no comments of the earlier versions alive: a
// comment taken over from an earlier parse holds on to nothing but itself.
func TestCacheKeepsNoOldComments(t *testing.T) {
	lines := make([]string, 4000)
	for i := range lines {
		if i%2 == 0 {
			lines[i] = fmt.Sprintf("# note %d", i)
		} else {
			lines[i] = fmt.Sprintf("a%d = (4,%d):(1,4)", i, i)
		}
	}
	cache := NewCache()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var early uint64
	for step := 0; step < 390; step++ {
		l := 10*step + 1
		lines[l] = "x" + lines[l]
		ParseFileCached("c.cute", []byte(strings.Join(lines, "\n")), cache)
		if step == 19 {
			early = heap()
		}
	}
	late := heap()
	runtime.KeepAlive(cache)
	if late > early+2<<20 {
		t.Fatalf("the heap grew from %d to %d bytes over 380 edits", early, late)
	}
}

// TestFirstParseOwnTrees: a first parse through a new cache, which looks
// nothing up (no tree of an earlier parse is there to take), gives each of
// a sheet's repeated statements a tree of its own, as ParseFile does, and
// keeps one entry per statement.
func TestFirstParseOwnTrees(t *testing.T) {
	src := []byte("A = (2,2):(1,2)\nA = (2,2):(1,2)\nassert A == A\nassert A == A\n  A = (2,2):(1,2)\nassert A == A")
	cache := NewCache()
	f, _ := ParseFileCached("t.cute", src, cache)
	want, _ := ParseFile("t.cute", src)
	if len(f.Statements) != len(want.Statements) {
		t.Fatalf("%d statements, ParseFile has %d", len(f.Statements), len(want.Statements))
	}
	seen := map[Stmt]bool{}
	for i, st := range f.Statements {
		if seen[st] {
			t.Errorf("statement %d shares its tree with an earlier one", i)
		}
		seen[st] = true
		if f.Base(i) != want.Base(i) || !Equal(st, want.Statements[i]) {
			t.Errorf("statement %d at %+v differs from ParseFile's at %+v", i, f.Base(i), want.Base(i))
		}
	}
	if n := cache.Len(); n != len(f.Statements) {
		t.Errorf("the cache holds %d entries, want one per statement (%d)", n, len(f.Statements))
	}
}
