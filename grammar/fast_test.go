package grammar

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/internal/benchsheet"
)

// parseSlow is ParseFileCached without the fast path (fastBinding).
func parseSlow(src string, cache *Cache) (*File, []*Error) {
	defer func() { fastPath = true }()
	fastPath = false
	if cache == nil {
		return ParseFile("f.cute", []byte(src))
	}
	return ParseFileCached("f.cute", []byte(src), cache)
}

// checkFastPathAgrees fails when the fast path makes of src anything the
// parser does not: trees with their positions, bases, comments, errors,
// and what a cache keeps of each statement (its key and where the next
// line starts).
func checkFastPathAgrees(t *testing.T, src string) {
	t.Helper()
	fastCache, slowCache := NewCache(), NewCache()
	fast, fastErrs := ParseFileCached("f.cute", []byte(src), fastCache)
	slow, slowErrs := parseSlow(src, slowCache)
	if !reflect.DeepEqual(normalized(fast), normalized(slow)) || !reflect.DeepEqual(fastErrs, slowErrs) {
		for i := range min(len(fast.Statements), len(slow.Statements)) {
			if !reflect.DeepEqual(fast.Statements[i], slow.Statements[i]) || fast.Base(i) != slow.Base(i) {
				t.Fatalf("statement %d: the fast path's\n%#v at %+v\nthe parser's\n%#v at %+v\non %q", i,
					fast.Statements[i], fast.Base(i), slow.Statements[i], slow.Base(i), src)
			}
		}
		t.Fatalf("the fast path's parse differs from the parser's on %q", src)
	}
	fr, sr := fastCache.last.records, slowCache.last.records
	for i := range fr {
		if fr[i].resume != sr[i].resume || fr[i].entry.key != sr[i].entry.key {
			t.Fatalf("statement %d: the fast path's record %+v %+v, the parser's %+v %+v, on %q", i,
				fr[i].resume, fr[i].entry.key, sr[i].resume, sr[i].entry.key, src)
		}
	}
	if text, _ := ParseTextCached("f.cute", src, NewCache()); !reflect.DeepEqual(normalized(text), normalized(slow)) {
		t.Fatalf("ParseTextCached differs from the parser on %q", src)
	}
	plain, _ := ParseFile("f.cute", []byte(src))
	if !reflect.DeepEqual(normalized(plain), normalized(slow)) {
		t.Fatalf("ParseFile's fast path differs from the parser on %q", src)
	}
	par, parErrs := parseParallel(src, NewCache()) // the fast path beside a batch
	if !reflect.DeepEqual(normalized(par), normalized(slow)) || !reflect.DeepEqual(parErrs, slowErrs) {
		t.Fatalf("the parallel parse's fast path differs from the parser on %q", src)
	}
}

// fastLines are lines in and just outside the fast path's subset.
var fastLines = []string{
	"L7 = (4,8):(1,16)", "L8 = coalesce(L7)", "L9 = composition((16,8):(8,1), (2,4):(1,2))",
	"L10 = complement(8:2, 64)", "  A  =  ( 2 , ( 2,2 ) ) : ( 4,(2,1) )  ", "B=(_8,_64):(_64,_1)", "\tC\t=\tf()\t",
	"D = (4,)", "D = (4,):(1,)", "E = ()", "E = (())", "F = -4", "F = (-4,_0):(1,-0)", "G = _-1", "G = (_-1, 2)",
	"H = 16b", "H = 0x7f", "H = 12345678901234567890", "H = 123456789012345678", "H = 1234567890123456789",
	"I = A:B", "I = A{}", "I = 1@0", "I = 1/2@0", "I = f(1)(2)", "I = f (1, g (2))", "J = ArithTuple(_0,0)",
	"J = counting_iter(5)", "K = S<3,4,3>", "K = Sw<3,4,3> o _0 o (8,64):(64,1)", "K = SW_3_4_3", "K = S[(8,2):(4@laneid,1)]",
	"M = f(A, \"x\")", "M = f(,)", "M = f(A,)", "M = (1,2", "M = (1,2))", "M = (1\n,2)", "N = A o B", "N = o",
	"o = 1", "_ = 1", "_8 = 1", "assert = 1", "is = 1", "is == 1", "assert A == B", "P = 1 # c", "P = 1 // c", "P = 1 /",
	"Q = é", "Q = (1,2):(1,é)", "é = 1", "R = 1\r", "R == 1", "R = = 1", "R =", "S = select<1,3>(A)", "T = [2:1;_]",
	"U = !cute.layout<\"(4,8):(1,4)\">", "V = ((2,2),(2,2)):((1,4),(2,8))", "W = f(g(h(1)), (2,3):(3,1), x)",
	"X = ?", "Y = (?,?{i64}):(1,?{div=16})", "Z = 1:1:1", "Z = (1,2)(3)", "Z = 1 2", "", "   ", "# only a comment",
	"AB = (" + strings.Repeat("(", 40) + "1" + strings.Repeat(")", 40) + ")", "AC = " + strings.Repeat("1", 2000),
	"AD = f(" + strings.Repeat("1,", 600) + "1)",
	"assert A == B", "assert A==B", "assert A is B", "assert (4,2):(1,4) is f(A, 2:1)", "assert A is", "assert A ==", "assert == A",
	"assert A = B", "assert A === B", "assert A == B == C", "assert A is B is C", "assert Ais B", "assert A isB", "assert f(x)is(2)",
	"assert A == B # c", "assert", "assert = 1", "assert(A) == 1", "assert A == é", "assert A == B // é",
	"A = 1 # é", "A = 1 #", "A = 1 //", "A = 1 // x // y", "A = 1# c", "A = (1,2) /# c", "# é\nA = 1", "// c\n\n  # d\nB = 2",
	"(" + strings.Repeat("0,", 16) + "0)", "A = (" + strings.Repeat("0,", 16) + "0)", "A = f(" + strings.Repeat("0,", 40) + "0)",
	"(" + strings.Repeat("0,", 300) + "0)", "A = (" + strings.Repeat("0,", 300) + "0) o _0",
	"A = 1 " + strings.Repeat(" ", 1030) + "# c", "A = 1 # " + strings.Repeat("x", 1030),
}

func TestFastPathAgrees(t *testing.T) {
	for _, l := range fastLines {
		for _, src := range []string{l, l + "\n", "\n\n" + l + "\nB = 1\n", "A = 1\n  " + l + "\n" + l + "\n", "X = (1,\n" + l + "\n"} {
			checkFastPathAgrees(t, src)
		}
	}
	r := rand.New(rand.NewPCG(8, 8))
	for range 200 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(fastLines[r.IntN(len(fastLines))])
			b.WriteString([]string{"\n", "\n", "\r\n", "\n\n", " # c\n", ""}[r.IntN(6)])
		}
		checkFastPathAgrees(t, b.String())
	}
	for _, src := range sheetSeeds(t) {
		checkFastPathAgrees(t, src)
	}
	checkFastPathAgrees(t, everyKind)
	checkFastPathAgrees(t, string(sheet5000()))
	checkFastPathAgrees(t, benchsheet.Peer(3000))
	checkFastPathAgrees(t, "\ufeff"+benchsheet.Peer(10))
}

// TestFastPathTakesPeerLines: every line of the sheet make bench-lsp
// opens is read by the fast path (none is left to the parser).
func TestFastPathTakesPeerLines(t *testing.T) {
	src := benchsheet.Peer(400)
	l := &stmtLexer{sc: scanner{src: src, line: 1, col: 1}, src: src, comments: new([]*Comment)}
	a := &arena{}
	for n := 0; l.sc.i < len(src); n++ {
		if s, _, _, _, ok := l.fastBinding(a); !ok || s == nil {
			t.Fatalf("line %d left to the parser: %q", n+1, strings.SplitN(src[l.sc.i:], "\n", 2)[0])
		}
	}
}

// FuzzFastPath: the fast path of a first parse makes of any text what
// the parser makes of it (checkFastPathAgrees).
func FuzzFastPath(f *testing.F) {
	for _, l := range fastLines {
		f.Add(l + "\n" + l)
	}
	for _, src := range sheetSeeds(f) {
		f.Add(src)
	}
	f.Add(benchsheet.Peer(50))
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > maxFuzzSheet {
			return
		}
		checkFastPathAgrees(t, src)
	})
}

// TestFastPathKeepsNoNodesOfLinesLeftToTheParser: the nodes the fast path
// made of a line before leaving it to the parser are taken back (arena's
// reset), not kept alive, unused, with their block: a first parse of a
// sheet of such lines keeps no more than one without the fast path.
func TestFastPathKeepsNoNodesOfLinesLeftToTheParser(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "A%d = f((1,2):(3,4), (5,6):(7,8), Sw<3,4,3>)\n", i)
	}
	src := []byte(b.String())
	keep := func() uint64 {
		return retained(func() any {
			c := NewCache()
			f, _ := ParseFileCached("k.cute", src, c)
			return [2]any{f, c}
		})
	}
	fastPath = false
	keep() // the parser's pools filled, as they are for the parse with the fast path
	without := keep()
	fastPath = true
	with := keep()
	if with > without+without/50 {
		t.Fatalf("a first parse keeps %d bytes, %d without the fast path", with, without)
	}
}

// TestFirstParseKeepsNoNodesOfBadStatements: the nodes a first parse made
// of a statement that did not parse are taken back by the arena: a sheet
// of bad statements keeps their texts and errors, not their nodes (which
// the nodes of the good statements between them would keep alive with
// their blocks). The tuples hold the line's number, so that the good
// statements share no tuple (see literals).
func TestFirstParseKeepsNoNodesOfBadStatements(t *testing.T) {
	sheet := func(bad string) []byte {
		var b strings.Builder
		for i := range 3000 {
			fmt.Fprintf(&b, "A%d = f((1,%d):(3,4), (5,%d):(7,8), (9,%d):(11,12), %s)\nB%d = 1:1\n", i, i, i, i, bad, i)
		}
		return []byte(b.String())
	}
	keep := func(src []byte) uint64 {
		return retained(func() any { f, _ := ParseFile("k.cute", src); return f })
	}
	keep(sheet("$")) // the parser's pools filled
	bad, good := keep(sheet("$")), keep(sheet("x"))
	if bad > good/2 {
		t.Fatalf("a first parse of bad statements keeps %d bytes, of good ones %d", bad, good)
	}
}

// TestFirstParseSharesLiterals: the fast path shares a literal read at the
// same place of two statements (see literals), and never a subtree holding
// a name, whose node the analysis tells apart from another's.
func TestFirstParseSharesLiterals(t *testing.T) {
	src := []byte("A = (4,8):(1,4)\nB = (4,8):(1,4)\nC = (N,8)\nD = (N,8)\nE = (4,8):(1,5)\n")
	f, errs := ParseFileCached("s.cute", src, NewCache())
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	value := func(i int) Node { return f.Statements[i].(*Binding).Value }
	if value(0) != value(1) {
		t.Errorf("the layouts of A and B are two nodes")
	}
	if value(2) == value(3) || value(2).(*Tuple).Elems[0] == value(3).(*Tuple).Elems[0] {
		t.Errorf("the tuples of C and D, which hold a name, are shared")
	}
	if a, e := value(0).(*Layout), value(4).(*Layout); a == e || a.Shape != e.Shape || a.Stride == e.Stride {
		t.Errorf("A and E share their layout, or their shapes are two nodes, or their strides one")
	}
	fastPath = false
	want, _ := ParseFile("s.cute", src)
	fastPath = true
	if !reflect.DeepEqual(normalized(f), normalized(want)) {
		t.Errorf("the shared trees differ from the parser's")
	}
}

// TestFirstParseSharesArgumentLists: the arguments of calls of shared
// literals alone are one list; a list holding a name is a call's own. The
// operation's name at the same place is one node.
func TestFirstParseSharesArgumentLists(t *testing.T) {
	src := []byte("A = f(4:1, 64)\nB = g(4:1, 64)\nC = f(X, 64)\nD = f(X, 64)\n")
	f, errs := ParseFileCached("s.cute", src, NewCache())
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	args := func(i int) []Node { return f.Statements[i].(*Binding).Value.(*Call).Args }
	if &args(0)[0] != &args(1)[0] {
		t.Errorf("the arguments of A and B are two lists")
	}
	if &args(2)[0] == &args(3)[0] || args(2)[0] == args(3)[0] {
		t.Errorf("the arguments of C and D, which hold a name, are shared")
	}
	call := func(i int) *Call { return f.Statements[i].(*Binding).Value.(*Call) }
	if call(0).Fun != call(2).Fun || call(0).Fun == call(1).Fun || call(2) == call(3) {
		t.Errorf("the operation's name of A and C is two nodes, or A's is B's, or C and D are one call")
	}
	fastPath = false
	want, _ := ParseFile("s.cute", src)
	fastPath = true
	if !reflect.DeepEqual(normalized(f), normalized(want)) {
		t.Errorf("the shared trees differ from the parser's")
	}
}
