package grammar

import "testing"

// TestTemplateCall: CuTe's template spelling select<1,3>(L) is a call whose
// template arguments are kept (integers and names, at their ranges), printed
// back as written, and make the call differ from the same call without them.
func TestTemplateCall(t *testing.T) {
	n, err := ParseExpr("select<1, N>(A, B)")
	if err != nil {
		t.Fatal(err)
	}
	c, ok := n.(*Call)
	if !ok {
		t.Fatalf("parsed as %T, want *Call", n)
	}
	if c.Fun.Name != "select" || len(c.Template) != 2 || len(c.Args) != 2 {
		t.Fatalf("call %+v", c)
	}
	if i, ok := c.Template[0].(*Int); !ok || i.Value != 1 || i.Pos.Offset != 7 || i.End.Offset != 8 {
		t.Errorf("first template argument %#v", c.Template[0])
	}
	if nm, ok := c.Template[1].(*Name); !ok || nm.Name != "N" || nm.Pos.Offset != 10 {
		t.Errorf("second template argument %#v", c.Template[1])
	}
	if got := Print(c, Cute); got != "select<1,N>(A, B)" {
		t.Errorf("printed %q", got)
	}
	plain, _ := ParseExpr("select(A, B)")
	if Equal(c, plain) {
		t.Error("select<1,N>(A, B) equals select(A, B)")
	}
	again, _ := ParseExpr("select<1,N>(A,B)")
	if !Equal(c, again) {
		t.Error("select<1, N>(A, B) differs from select<1,N>(A,B)")
	}
	var names []string
	Inspect(c, func(n Node) bool {
		if nm, ok := n.(*Name); ok {
			names = append(names, nm.Name)
		}
		return true
	})
	if len(names) != 4 || names[1] != "N" {
		t.Errorf("Inspect met the names %v, want select, N, A, B", names)
	}
}

// TestTemplateCallErrors: a template list that is not integers and names,
// or that no argument list follows, is an error at the offending token.
func TestTemplateCallErrors(t *testing.T) {
	for _, tc := range []struct{ src, at string }{
		{"select<(1)>(A)", "1:8"},
		{"select<1,3>", "1:12"},
		{"select<1 3>(A)", "1:10"},
		{"Int<2>", "1:7"},
	} {
		_, err := ParseExpr(tc.src)
		if err == nil {
			t.Errorf("%q parses", tc.src)
			continue
		}
		if got := formatPos(err.Range.Pos); got != tc.at {
			t.Errorf("%q: error at %s (%s), want %s", tc.src, got, err.Message, tc.at)
		}
	}
}

func formatPos(p Position) string { return itoa(int(p.Line)) + ":" + itoa(int(p.Column)) }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
