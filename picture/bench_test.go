package picture

import (
	"io"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// The speed targets: a 256x256 SVG in under 100 ms, a 1024x1024 page in
// under 1 s, from the layout's value to the last byte written.
// go test ./picture -run '^$' -bench . -benchmem

func benchPicture(b *testing.B, src string, write func(*Grid, io.Writer) error) {
	v, err := analysis.EvalString(src)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		g, err := FromLayout(v)
		if err != nil {
			b.Fatal(err)
		}
		if err := write(g, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSVG256Swizzled(b *testing.B) {
	benchPicture(b, "Sw<3,4,3> o 0 o (256,256):(256,1)", (*Grid).WriteSVG)
}

func BenchmarkHTML1024Swizzled(b *testing.B) {
	benchPicture(b, "Sw<3,4,3> o 0 o (1024,1024):(1024,1)", (*Grid).WriteHTML)
}

func BenchmarkGrid2048(b *testing.B) {
	v, err := analysis.EvalString("(2048,2048):(1,2048)")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := FromLayout(v); err != nil {
			b.Fatal(err)
		}
	}
}
