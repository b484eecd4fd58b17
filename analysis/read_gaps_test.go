package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// readGapShapes are C++ shapes the compiler never sees, or sees with
// another meaning (findings 0), beside near misses it does see (1): the
// test below, and the lint and edit fuzzers' seeds.
var readGapShapes = func() []struct {
	name, src string
	findings  int
} {
	const bad = "auto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<_6>{});\n"
	const badA = "auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n"
	const badCall = "logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n"
	return []struct {
		name, src string
		findings  int
	}{
		{"digraph", "%:if 0\nint x0 = 1;\n" + bad + "%:endif\n", 0},
		{"digraph indented", "  %: if 0\nint x0 = 1;\n" + bad + "%:endif\n", 0},
		{"block comment", "#if 0 /* off */\nint x0 = 1;\n" + bad + "#endif\n", 0},
		{"parentheses", "#if (0) // off\nint x0 = 1;\n" + bad + "#endif\n", 0},
		{"comment goes on", "#if 0 /* the condition\n */ || 1\nint x0 = 1;\n" + bad + "#endif\n", 1},
		{"not constant", "#if (0) || (X)\nint x0 = 1;\n" + bad + "#endif\n", 1},
		{"enumerator", "auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nenum E { b, a = 3 };\n" + badA + "}\n", 0},
		{"enumerator typed", "auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nenum E : std::uint8_t { a };\n" + badA + "}\n", 0},
		{"enumerator of a local enum", "auto a = Layout<Shape<_4,_3>>{};\nvoid g() {\nenum { b = f(1, 2), a = b + 1 };\n" + badA + "}\n", 0},
		{"scoped enumerator", "auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nenum class E { a };\n" + badA + "}\n", 1},
		{"else macro", "#define ELSE else\ntemplate <class T> void f() {\n  int y = 0;\n  if constexpr (sizeof(T) > 2) y = 1;\n  ELSE " + badCall + "}\n", 0},
		{"else macro braced", "  #  define OTHERWISE else // spelled out\ntemplate <class T> void f() {\n  int y = 0;\n  if constexpr (sizeof(T) > 2) { y = 1; } OTHERWISE { " + badCall + "}\n}\n", 0},
		{"macro of something else", "#define ELSE y = 2;\ntemplate <class T> void f() {\n  int y = 0;\n  if constexpr (sizeof(T) > 2) y = 1;\n  ELSE " + badCall + "}\n", 1},
		{"else macro disabled", "#if 0\n#define ELSE else\n#endif\ntemplate <class T> void f() {\n  int y = 0;\n  if constexpr (sizeof(T) > 2) y = 1;\n  ELSE " + badCall + "}\n", 1},
		{"braced list", "auto a = Layout<Shape<_4,_3>>{};\nnamespace n {\nint x0 = 1;\nint v[] = { b, a };\n" + badA + "}\n", 1},
	}
}()

// TestReadDisabledAndHidden: code the compiler never sees, or sees with
// another meaning, gives no finding, read fully or by lint: an "#if 0"
// spelled "%:if 0" or with a comment or parentheses in its condition, an
// operand hidden by an unscoped enum's enumerator of the same name, and
// the discarded else of an if constexpr written through a macro the file
// defines as "else". The scoped enum's enumerator hides nothing, and a
// macro of other text (or defined in disabled code) makes no else: those
// calls are rejected.
func TestReadDisabledAndHidden(t *testing.T) {
	for _, c := range readGapShapes {
		got := sameLintFindingsEveryWay(t, c.name, lintAdversarialSource(c.src))
		if len(got) != c.findings {
			t.Errorf("%s: %d findings, want %d: %v", c.name, len(got), c.findings, got)
		}
	}
}

// TestReadGapsCachedEdits: an edit of the directive or the enum that hides
// a call changes that call's findings and hovers, far from the edit, as a
// fresh read of the edited text gives them (the code cache keeps nothing
// of the version before).
func TestReadGapsCachedEdits(t *testing.T) {
	for _, c := range readGapShapes {
		text := "using namespace cute;\n" + c.src
		cache := NewCodeCache()
		rng := rand.New(rand.NewPCG(1, 2))
		for _, edit := range [][2]string{{"else\n", "elsf\n"}, {"#if 0", "#if 1"}, {"%:if 0", "%:if 1"}, {"enum E", "struct E"}, {"elsf\n", "else\n"}} {
			if msg := compareCached(LangCpp, text, cache, rng); msg != "" {
				t.Fatalf("%s: %s\n--- text:\n%s", c.name, msg, text)
			}
			text = strings.Replace(text, edit[0], edit[1], 1)
		}
	}
}
