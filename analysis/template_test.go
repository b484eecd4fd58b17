package analysis

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// templateForms pairs CuTe's template spelling of each operation that has
// one with the registry's function form (template parameters as integers
// after the first argument): both must give the same value.
var templateForms = []struct{ template, function string }{
	{"get<1>((2,(3,4)))", "get((2,(3,4)), 1)"},
	{"get<1,0>((4,(8,2)):(1,(4,32)))", "get((4,(8,2)):(1,(4,32)), 1, 0)"},
	{"group<0,2>((4,8,2):(1,4,32))", "group((4,8,2):(1,4,32), 0, 2)"},
	{"take<1,3>((4,8,2):(1,4,32))", "take((4,8,2):(1,4,32), 1, 3)"},
	{"select<2,0>((4,8,2):(1,4,32))", "select((4,8,2):(1,4,32), 2, 0)"},
	{"layout<1,0>((4,(8,2)):(1,(4,32)))", "layout((4,(8,2)):(1,(4,32)), 1, 0)"},
	{"append<4>((4,8):(1,4))", "append((4,8):(1,4), 4)"},
	{"prepend<4>((4,8):(1,4))", "prepend((4,8):(1,4), 4)"},
	{"replace<1>((4,8):(1,4), 2:1)", "replace((4,8):(1,4), 1, 2:1)"},
	{"shape<1>((4,(8,2)):(1,(4,32)))", "shape((4,(8,2)):(1,(4,32)), 1)"},
	{`tile_size<1>(make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1))))`, `tile_size(make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1))), 1)`},
	{"stride<1,1>((4,(8,2)):(1,(4,32)))", "stride((4,(8,2)):(1,(4,32)), 1, 1)"},
	{"size<1>((4,(8,2)):(1,(4,32)))", "16"},
	{"cosize<1>((4,(8,2)):(1,(4,32)))", "61"},
	{"rank<1>((4,(8,2)):(1,(4,32)))", "2"},
	{"depth<1>((4,(8,2)):(1,(4,32)))", "1"},
	{"upcast<2>((4,8):(1,4))", "upcast((4,8):(1,4), 2)"},
	{"downcast<2>((4,8):(1,4))", "downcast((4,8):(1,4), 2)"},
	{"recast_layout<16,32>((4,8):(1,4))", "recast_layout((4,8):(1,4), 16, 32)"},
}

// TestTemplateCallsEvaluate: every template form gives its function form's
// value, and every operation whose signature is written with template
// arguments (cute-lsp ops) is among them, so a new one cannot be missed.
func TestTemplateCallsEvaluate(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range templateForms {
		got, err := EvalString(tc.template)
		if err != nil {
			t.Errorf("%s: %v", tc.template, err)
			continue
		}
		want, err := EvalString(tc.function)
		if err != nil {
			t.Fatalf("%s: %v", tc.function, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s = %v, want %v (%s)", tc.template, got, want, tc.function)
		}
		covered[tc.template[:strings.IndexByte(tc.template, '<')]] = true
	}
	templated := regexp.MustCompile(`^(\w+)<`)
	for _, op := range Ops() {
		for _, form := range strings.Split(op.Signature, " / ") {
			if m := templated.FindStringSubmatch(form); m != nil && !covered[m[1]] {
				t.Errorf("%s has the template form %s but no test of it here", op.Name, form)
			}
		}
	}
}

// TestTemplateArgumentsInSheet: a template argument may be a name bound to
// an integer; a name bound to anything else is an error at that argument.
func TestTemplateArgumentsInSheet(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte("A = (4,8):(1,4)\nN = 2\nB = upcast<N>(A)\nC = select<A>(A)\nassert B == (2,8):(1,2)\n"))
	if len(s.Findings) != 1 {
		t.Fatalf("findings %v, want one (C)", s.Findings)
	}
	f := s.Findings[0]
	if f.Range.Pos.Line != 4 || f.Range.Pos.Column != 12 || !strings.Contains(f.Message, "template argument 1 of select must be an integer") {
		t.Errorf("finding %d:%d %q", f.Range.Pos.Line, f.Range.Pos.Column, f.Message)
	}
}

// TestArgumentErrorsNameTheArgument: an argument of the wrong kind is an
// error at that argument that says which one, without the algebra's
// internal names; upcast(2, L) says the order is wrong.
func TestArgumentErrorsNameTheArgument(t *testing.T) {
	for _, tc := range []struct{ src, at, want string }{
		{"upcast(2, (4,8):(1,4))", "2", "argument 1 of upcast: the arguments are in the wrong order"},
		{"upcast((4,8):(1,4), (2,2))", "(2,2)", "argument 2 of upcast: the factor N must be an integer"},
		{"select<1>(Sw<3,4,3>)", "Sw<3,4,3>", "argument 1 of select: expected a layout"},
		{"select((4,8):(1,4), (1,2))", "(1,2)", "argument 2 of select: expected an integer"},
		{"replace<1>((4,8):(1,4), Sw<3,4,3>)", "Sw<3,4,3>", "argument 2 of replace: expected a layout"},
		{"bank_conflicts<1>((4,8):(1,4), (4,8):(1,4), 16)", "1", "bank_conflicts takes no template arguments"},
		{"coalesce(Sw<3,4,3>)", "Sw<3,4,3>", "argument 1 of coalesce: expected a layout"},
		{"logical_divide((4,8):(1,4), Sw<3,4,3>)", "Sw<3,4,3>", "argument 2 of logical_divide: the tiler Sw<3,4,3> is not"},
		{"logical_divide(Sw<3,4,3>, 2:1)", "Sw<3,4,3>", "argument 1 of logical_divide: expected a layout"},
		{"gcd(4, Sw<3,4,3>)", "Sw<3,4,3>", "argument 2 of gcd: expected an integer tuple"},
		{"crd2idx(Sw<3,4,3>, (4,8):(1,4))", "Sw<3,4,3>", "argument 1 of crd2idx: expected an integer tuple"},
	} {
		_, err := EvalString(tc.src)
		var ee *EvalError
		if !errors.As(err, &ee) {
			t.Errorf("%s: %v, want an EvalError", tc.src, err)
			continue
		}
		if at := tc.src[ee.Range.Pos.Offset:ee.Range.End.Offset]; at != tc.at || !strings.HasPrefix(ee.Message, tc.want) {
			t.Errorf("%s: %q at %q, want %q at %q", tc.src, ee.Message, at, tc.want, tc.at)
		}
	}
}
