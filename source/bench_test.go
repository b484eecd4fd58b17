package source

import (
	"os"
	"strings"
	"testing"
)

// benchText is seed.cu repeated to about 100 KB, inside functions so that
// its names have scopes.
func benchText(b *testing.B, name string) []byte {
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for i := 0; sb.Len() < 100<<10; i++ {
		if strings.HasSuffix(name, ".py") {
			sb.Write(data)
			continue
		}
		sb.WriteString("void f() {\n")
		sb.Write(data)
		sb.WriteString("}\n")
	}
	return []byte(sb.String())
}

func BenchmarkReadCpp(b *testing.B) {
	src := benchText(b, "seed.cu")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ReadCpp(src)
	}
}

func BenchmarkReadPython(b *testing.B) {
	src := benchText(b, "seed.py")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ReadPython(src)
	}
}
