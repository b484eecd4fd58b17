package prop

import (
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// mustLayout reads a flat layout, "(a,b,...):(c,d,...)" or "a:b".
func mustLayout(s string) layout.Layout {
	shape, stride, ok := strings.Cut(s, ":")
	if !ok {
		panic("not a layout: " + s)
	}
	ints := func(t string) layout.IntTuple {
		if !strings.HasPrefix(t, "(") {
			n, err := strconv.ParseInt(t, 10, 64)
			if err != nil {
				panic(err)
			}
			return layout.Int(n)
		}
		var vs []int64
		for _, f := range strings.Split(strings.Trim(t, "()"), ",") {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				panic(err)
			}
			vs = append(vs, n)
		}
		return layout.Ints(vs...)
	}
	return layout.Make(ints(shape), ints(stride))
}
