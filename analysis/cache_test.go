package analysis

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// editLines makes a random edit of a sheet: a line changed, inserted,
// deleted or duplicated, or a piece of text typed somewhere.
func editLines(r *rand.Rand, src string) string {
	lines := []string{
		"A = (4,6):(1,4)", "B = logical_divide(A, [2:1;3:1])", "C = coalesce(B)", "assert B == B", "A = 8:1",
		"D = complement((2,2):(1,1))", "E = composition(Sw<3,4,3>, (8,64):(64,1))", "assert size(A) == 24",
		"F = zipped_divide(C, [4:1;_])", "# comment", "", "G = (4,2:(1,4)", "x = frobnicate(A)", "assert A is (4,6):(1,4)",
		"H = make_layout((4,8), LayoutRight)", "C = C", "Y = coalesce(AA)", "Z = composition(Cx, Dd)", "_t = A", "K = complement((4,2):(1,8), 256) // tail",
		"c = bank_conflicts(64:1, 32:1, 32, ld)", "ld = 8:1", "LayoutLeft = A", "n = make_layout((2,2), LayoutLeft)",
	}
	pieces := []string{"(", ")", ",", ":", "1", "A", "B", " ", "\n", "=", "8"}
	ls := strings.Split(src, "\n")
	i := r.IntN(len(ls))
	switch r.IntN(5) {
	case 0:
		ls[i] = lines[r.IntN(len(lines))]
	case 1:
		ls = append(ls[:i], append([]string{lines[r.IntN(len(lines))]}, ls[i:]...)...)
	case 2:
		if len(ls) > 1 {
			ls = append(ls[:i], ls[i+1:]...)
		}
	case 3:
		ls = append(ls[:i], append([]string{ls[i]}, ls[i:]...)...)
	default:
		at := r.IntN(len(ls[i]) + 1)
		ls[i] = ls[i][:at] + pieces[r.IntN(len(pieces))] + ls[i][at:]
	}
	return strings.Join(ls, "\n")
}

func renderFindings(s *Sheet) string {
	var b strings.Builder
	for _, f := range s.Findings {
		fmt.Fprintf(&b, "%v\n", f)
	}
	return b.String()
}

// renderNames lists, in order, each name the statements read with the
// binding it resolves to (by statement and name), and each binding's uses.
// It checks that Ref agrees with Refs on every name of the trees.
func renderNames(t *testing.T, s *Sheet) string {
	var b strings.Builder
	refs := s.Refs()
	for i, st := range s.File.Statements {
		grammar.Inspect(st, func(n grammar.Node) bool {
			name, ok := n.(*grammar.Name)
			if !ok {
				return true
			}
			sym, in := refs[name]
			if got := s.Ref(name); got != sym {
				t.Errorf("statement %d: Ref(%s at %v) = %v, Refs has %v", i, name.Name, name.Range, got, sym)
			}
			if got := s.refAt(i, name); got != sym {
				t.Errorf("statement %d: refAt(%s at %v) = %v, Refs has %v", i, name.Name, name.Range, got, sym)
			}
			at := s.File.Range(i, name.Range)
			switch {
			case !in:
				fmt.Fprintf(&b, "%d %s %v: -\n", i, name.Name, at)
			case sym == nil:
				fmt.Fprintf(&b, "%d %s %v: unbound\n", i, name.Name, at)
			default:
				fmt.Fprintf(&b, "%d %s %v: %s of %d\n", i, name.Name, at, sym.Name, sym.Stmt)
			}
			return true
		})
	}
	for _, sym := range s.Symbols {
		fmt.Fprintf(&b, "%s of %d (line %d) read at", sym.Name, sym.Stmt, sym.Line)
		for _, r := range s.References(sym, false) {
			fmt.Fprintf(&b, " %v", r)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func renderResults(s *Sheet) string {
	var b strings.Builder
	for _, r := range s.Results {
		fmt.Fprintf(&b, "%v %v\n", r.Value, r.Err)
	}
	return b.String()
}

// TestCachedAnalysisMatchesFresh: over random edit sequences, the cached
// analysis of every version has the findings and results of a fresh one.
func TestCachedAnalysisMatchesFresh(t *testing.T) {
	base := "A = (4,6):(1,4)\nB = logical_divide(A, [2:1;3:1])\nC = coalesce(B)\nassert B == B\n" +
		"D = complement((2,2):(1,1))\nE = coalesce(D)\nF = zipped_divide(C, [4:1;_])\nassert size(A) == 24\n" +
		"G = (4,2:(1,4)\nA = 8:1\nH = composition(A, (2,2):(1,2))\n"
	r := rand.New(rand.NewPCG(3, 5))
	reused := 0
	for seq := 0; seq < 30; seq++ {
		cache := NewCache()
		if seq%2 == 1 {
			cache.slack = 0 // entries are dropped as soon as they can be
		}
		src := base
		for step := 0; step < 30; step++ {
			cached := AnalyzeSheetCached("p.cute", []byte(src), cache)
			fresh := AnalyzeSheet("p.cute", []byte(src))
			if got, want := renderFindings(cached), renderFindings(fresh); got != want {
				t.Fatalf("sequence %d step %d: cached findings\n%s\nfresh\n%s\nsource:\n%s", seq, step, got, want, src)
			}
			if got, want := renderResults(cached), renderResults(fresh); got != want {
				t.Fatalf("sequence %d step %d: cached results\n%s\nfresh\n%s\nsource:\n%s", seq, step, got, want, src)
			}
			if got, want := renderNames(t, cached), renderNames(t, fresh); got != want {
				t.Fatalf("sequence %d step %d: cached names\n%s\nfresh\n%s\nsource:\n%s", seq, step, got, want, src)
			}
			// Entries the latest analysis did not use are dropped once
			// they outnumber the statements.
			limit := 2*len(cached.File.Statements) + cache.slack
			if n := len(cache.entries); n > limit {
				t.Fatalf("sequence %d step %d: the cache holds %d entries for %d statements", seq, step, n, len(cached.File.Statements))
			}
			reused += cached.Reused
			if step%7 == 6 {
				// Another sheet analyzed with the cache drops this one's
				// entries; the trees of the latest parse still carry
				// theirs, and take them back.
				other, _ := grammar.ParseFile("o.cute", []byte(base))
				AnalyzeFile(other, []byte(base), cache)
				again := AnalyzeFile(cached.File, []byte(src), cache)
				if got, want := renderFindings(again)+renderResults(again)+renderNames(t, again), renderFindings(fresh)+renderResults(fresh)+renderNames(t, fresh); got != want {
					t.Fatalf("sequence %d step %d: analysis after another sheet's\n%s\nfresh\n%s\nsource:\n%s", seq, step, got, want, src)
				}
				if again.Reused == 0 && len(again.File.Statements) > 3 {
					t.Fatalf("sequence %d step %d: nothing reused after another sheet's analysis", seq, step)
				}
			}
			src = editLines(r, src)
		}
	}
	if reused == 0 {
		t.Fatalf("the cache was never used")
	}
}

// TestClosestAgreesWithFullDistance: the bounded distance picks the name the
// full Levenshtein distance picks.
func TestClosestAgreesWithFullDistance(t *testing.T) {
	full := func(a, b string) int {
		prev := make([]int, len(b)+1)
		for j := range prev {
			prev[j] = j
		}
		for i := 1; i <= len(a); i++ {
			cur := make([]int, len(b)+1)
			cur[0] = i
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			}
			prev = cur
		}
		return prev[len(b)]
	}
	r := rand.New(rand.NewPCG(9, 9))
	word := func() string {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = "abt12_"[r.IntN(6)]
		}
		return string(b)
	}
	for i := 0; i < 300; i++ {
		name := word()
		var cands []string
		for k := r.IntN(30); k > 0; k-- {
			cands = append(cands, word())
		}
		want, bestDist := "", len(name)/2+1
		for _, c := range cands {
			if d := full(name, c); d < bestDist || (d == bestDist && want != "" && c < want) {
				want, bestDist = c, d
			}
		}
		if got, _ := closest(name, cands); got != want {
			t.Fatalf("closest(%q, %q) = %q, want %q", name, cands, got, want)
		}
		// Split in two, the first half's answer carried into the second's
		// search with precomputed masks, as a sheet's names and tags are.
		half := len(cands) / 2
		masks := make([]uint64, len(cands))
		for i, c := range cands {
			masks[i] = letterMask(c)
		}
		first, ok := closest(name, cands[:half])
		if got, _ := closestIn(name, cands[half:], masks[half:], first, ok); got != want {
			t.Fatalf("closestIn(%q, %q then %q) = %q, want %q", name, cands[:half], cands[half:], got, want)
		}
	}
}

// TestSuggestionsMatchFresh: the names suggested for undefined names, found
// among the names the cache has seen bound, are those a fresh analysis
// finds among the names bound before the use, over sheets whose bindings
// are renamed, added and removed (enough new names that the cache clears
// what it has seen more than once).
func TestSuggestionsMatchFresh(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	word := func() string {
		b := make([]byte, 1+r.IntN(6))
		for i := range b {
			b[i] = "abAB12_"[r.IntN(7)]
		}
		if b[0] >= '0' && b[0] <= '9' {
			b[0] = 'x'
		}
		return string(b)
	}
	cache := NewCache()
	var lines []string
	for i := 0; i < 60; i++ {
		lines = append(lines, word()+" = 4:1")
	}
	suggested := 0
	for step := 0; step < 300; step++ {
		for k := 0; k < 1+r.IntN(40); k++ {
			i := r.IntN(len(lines))
			switch r.IntN(4) {
			case 0:
				lines[i] = word() + " = 4:1"
			case 1:
				lines[i] = "c = coalesce(" + word() + ")"
			case 2:
				lines[i] = word() + " = composition(" + word() + ", " + word() + ")"
			default:
				lines[i] = "LayoutRigth"
			}
		}
		src := []byte(strings.Join(lines, "\n"))
		cached := AnalyzeSheetCached("s.cute", src, cache)
		fresh := AnalyzeSheet("s.cute", src)
		if got, want := renderFindings(cached), renderFindings(fresh); got != want {
			t.Fatalf("step %d: cached findings\n%s\nfresh\n%s\nsource:\n%s", step, got, want, src)
		}
		suggested += strings.Count(renderFindings(fresh), "did you mean")
	}
	if suggested == 0 || cache.epoch < 2 {
		t.Fatalf("%d suggestions, the universe cleared %d times: the test misses what it tests", suggested, cache.epoch)
	}
}

// TestPrefixNeedsTheSameText: the statements an analysis takes over from
// the latest one must stand on the same text, not only be the same trees.
func TestPrefixNeedsTheSameText(t *testing.T) {
	cache := NewCache()
	src := []byte("Ab = 4:1\nC = coalesce(Ab)\nD = coalesce(Ax)\n")
	first := AnalyzeSheetCached("p.cute", src, cache)
	// The same trees over other text (the undefined name's finding quotes
	// the text).
	other := []byte("Ab = 4:1\nC = coalesce(Ab)\nD = coalesce(Zz)\n")
	got := AnalyzeFile(first.File, other, cache)
	want := AnalyzeFile(first.File, other, nil)
	if g, w := renderFindings(got), renderFindings(want); g != w {
		t.Fatalf("findings\n%s\nwant\n%s", g, w)
	}
	again := AnalyzeFile(first.File, src, cache)
	if again.Reused != len(first.File.Statements) {
		t.Fatalf("the same file again reused %d of %d statements", again.Reused, len(first.File.Statements))
	}
}

// TestTakenOverBindingsKeepNoOldTrees: an analysis that takes over the
// bindings of the statements before an edit keeps nothing else of the
// analysis they come from alive, such as the trees of the statements after
// the edit, which the next edit changed.
func TestTakenOverBindingsKeepNoOldTrees(t *testing.T) {
	lines := make([]string, 20)
	for i := range lines {
		lines[i] = fmt.Sprintf("A%d = (%d,2):(1,4)", i, i+1)
	}
	cache := NewCache()
	AnalyzeSheetCached("k.cute", []byte(strings.Join(lines, "\n")), cache)
	lines[2] = "# " + lines[2]
	s1 := AnalyzeSheetCached("k.cute", []byte(strings.Join(lines, "\n")), cache)
	freed := make(chan bool, 1)
	runtime.SetFinalizer(s1.File.Statements[len(s1.File.Statements)-1].(*grammar.Binding), func(*grammar.Binding) { freed <- true })
	s1 = nil
	// The statements before line 4 are taken over, among them one bound
	// by the analysis before; the last statement is changed.
	lines[4] = "# " + lines[4]
	lines[len(lines)-1] = "Z = 1:1"
	s2 := AnalyzeSheetCached("k.cute", []byte(strings.Join(lines, "\n")), cache)
	for range 20 {
		runtime.GC()
		select {
		case <-freed:
			runtime.KeepAlive(s2)
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("the tree of the last statement as the analysis before the latest saw it is still alive")
}

// TestPrefixEndsWhereStatementsMove: after an edit that only moves the
// statements after it (a blank line inserted), those before it are taken
// over from the earlier analysis (the same symbols), and those after it,
// the same trees at new places, are not.
func TestPrefixEndsWhereStatementsMove(t *testing.T) {
	cache := NewCache()
	s1 := AnalyzeSheetCached("p.cute", []byte("A = 1:1\nB = 2:1\nC = 3:1\nD = 4:1\n"), cache)
	s2 := AnalyzeSheetCached("p.cute", []byte("A = 1:1\nB = 2:1\n\nC = 3:1\nD = 4:1\n"), cache)
	if s2.File.Statements[2] != s1.File.Statements[2] {
		t.Fatalf("the moved statement's tree was not taken as it was")
	}
	if s2.Symbols[0] != s1.Symbols[0] || s2.Symbols[1] != s1.Symbols[1] {
		t.Errorf("the statements before the edit were not taken over")
	}
	if s2.Symbols[2] == s1.Symbols[2] || s2.Symbols[2].Line != 4 || s2.Symbols[3].Line != 5 {
		t.Errorf("the statements after the edit were taken over, or are placed at lines %d and %d", s2.Symbols[2].Line, s2.Symbols[3].Line)
	}
}

// TestUniverseStartsAtTheFirstUndefinedName: the cache keeps the names
// bound for suggestions only from the first undefined name on (nearOf),
// so the names bound before it, in statements an analysis took over from
// the one before (takePrefix) or evaluated before it, are suggested all
// the same, as a fresh analysis suggests them. Checked: nearOf starting
// from an empty universe rather than the scope fails it (no suggestion of
// Alpha in the second version).
func TestUniverseStartsAtTheFirstUndefinedName(t *testing.T) {
	versions := []string{
		"Alpha = 8:1\nB = Alpha\nGamma = 4:2\n",
		"Alpha = 8:1\nB = Alpah\nGamma = 4:2\n",
		"Alpha = 8:1\nB = Alpah\nGamma = 4:2\nC = Gamm\nDelta = 2:1\nE = Deltaa\n",
		"Alpha = 8:1\nB = Alpha\nGamma = 4:2\nC = Gamm\nDelta = 2:1\nE = Deltaa\n",
		"Alpha = 8:1\nB = Alpha\nGamma = 4:2\nC = Gamma\nDelta = 2:1\nE = Deltaa\nAlpha = 2:1\nF = Alphaa\n",
	}
	cache := NewCache()
	suggested := 0
	for i, src := range versions {
		cached := AnalyzeSheetCached("u.cute", []byte(src), cache)
		fresh := AnalyzeSheet("u.cute", []byte(src))
		if got, want := renderFindings(cached), renderFindings(fresh); got != want {
			t.Fatalf("version %d: cached findings\n%s\nfresh\n%s\nsource:\n%s", i, got, want, src)
		}
		for _, f := range cached.Findings {
			suggested += len(f.Fixes)
		}
	}
	if suggested == 0 {
		t.Fatal("no suggestion: the test checks nothing")
	}
}

// TestEditKeepsTheSymbolsOfUnchangedStatements: after an edit that keeps
// the line count, the bindings after it that read nothing it changed keep
// their symbols (the same objects), those that read it get new ones with
// the new values, and every value is a fresh analysis's. Checked: with
// keptSymbol returning nil, nothing is kept (the count check fails).
func TestEditKeepsTheSymbolsOfUnchangedStatements(t *testing.T) {
	before := "A = (4,2):(1,4)\nB = coalesce(A)\nC = (8,8):(1,16)\nD = coalesce(C)\nE = composition(C, (2,2):(1,2))\nF = B\n"
	after := strings.Replace(before, "A = (4,2):(1,4)", "A = (2,4):(1,2)", 1)
	cache := NewCache()
	first := AnalyzeSheetCached("k.cute", []byte(before), cache)
	second := AnalyzeSheetCached("k.cute", []byte(after), cache)
	fresh := AnalyzeSheet("k.cute", []byte(after))
	if got, want := renderResults(second)+renderNames(t, second), renderResults(fresh)+renderNames(t, fresh); got != want {
		t.Fatalf("cached\n%s\nfresh\n%s", got, want)
	}
	kept := map[string]bool{}
	for k, sym := range second.Symbols {
		kept[sym.Name] = sym == first.Symbols[k]
	}
	for _, name := range []string{"C", "D", "E"} {
		if !kept[name] {
			t.Errorf("%s: a new symbol, though nothing it reads changed", name)
		}
	}
	for _, name := range []string{"A", "B", "F"} {
		if kept[name] {
			t.Errorf("%s: the old symbol kept, though its value changed", name)
		}
	}
}

// An edit undone finds the results of the statements it had changed, a
// statement reading the edited binding among them: its result before the
// edit (in the room its note had for its first, stmtNote.first) is not
// overwritten by its result during the edit. Checked: storing every result
// in that room fails it.
func TestCacheUndoneEditReuses(t *testing.T) {
	src, edited := "A = 4:1\nB = coalesce(A)\n", "A = 8:1\nB = coalesce(A)\n"
	cache := NewCache()
	AnalyzeSheetCached("undo.cute", []byte(src), cache)
	if s := AnalyzeSheetCached("undo.cute", []byte(edited), cache); s.Reused != 0 {
		t.Fatalf("the edit reused %d statements, want 0", s.Reused)
	}
	s := AnalyzeSheetCached("undo.cute", []byte(src), cache)
	if s.Reused != 2 {
		t.Errorf("undoing the edit reused %d statements, want 2", s.Reused)
	}
	if got := s.Symbols[1].Value.String(); got != "4:1" {
		t.Errorf("B = %s, want 4:1", got)
	}
}
