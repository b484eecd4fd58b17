package grammar

import (
	"strings"
	"testing"
)

// A name followed by "<" (other than a swizzle's) is a call with template
// parameters, CuTe's tile_size<0>(M): they are kept apart from the
// arguments and printed back as written.
func TestTemplateCall(t *testing.T) {
	n, err := ParseExpr("tile_size<0>(make_tiled_mma(mma_atom(\"X\"), (2,2,1):(1,2,0)))")
	if err != nil {
		t.Fatal(err)
	}
	c, ok := n.(*Call)
	if !ok || c.Fun.Name != "tile_size" || len(c.Template) != 1 || len(c.Args) != 1 {
		t.Fatalf("parsed %#v", n)
	}
	if i, ok := c.Template[0].(*Int); !ok || i.Value != 0 {
		t.Fatalf("template parameter %#v", c.Template[0])
	}
	for _, src := range []string{"tile_size<0>(M)", "group<0,2>(L)", "get<1,0>((2,(3,4)):(1,(2,6)))", "f<2>()"} {
		n, err := ParseExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := Print(n, Cute); got != src {
			t.Errorf("%s prints as %s", src, got)
		}
		var names []string
		Inspect(n, func(m Node) bool {
			if x, ok := m.(*Name); ok {
				names = append(names, x.Name)
			}
			return true
		})
		if len(names) == 0 {
			t.Errorf("%s: Inspect visits no name", src)
		}
	}
	a, _ := ParseExpr("tile_size<0>(M)")
	b, _ := ParseExpr("tile_size<1>(M)")
	if Equal(a, b) {
		t.Error("tile_size<0>(M) and tile_size<1>(M) compare equal")
	}
}

// Malformed template parameter lists are errors at the token that breaks them.
func TestTemplateCallErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"tile_size<0(M)", "'('"},
		{"tile_size<0>", "end of input"},
		{"tile_size<>(M)", "'>'"},
		{"tile_size<0;1>(M)", "';'"},
		{"tile_size<0>[M]", "'['"},
	} {
		_, err := ParseExpr(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want an error naming %s", tc.src, err, tc.msg)
		}
	}
}
