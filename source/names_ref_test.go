package source

import (
	"encoding/binary"
	"strings"
	"testing"
)

// calledAtReference is calledAt as first written: the line reached and
// the word before the opener looked at one byte at a time.
func calledAtReference(src []byte, o int, names *Names) bool {
	j := o - 1
	crossed := false
	for j >= 0 && src[j] <= ' ' {
		if src[j] == '\n' {
			crossed = true
		}
		j--
	}
	if j < 0 {
		return false
	}
	if c := src[j]; c == '/' || c == '\\' {
		return true
	}
	if crossed {
		start := j
		for ; start > 0; start-- {
			if c := lineByte[src[start-1]]; c != 0 {
				if c == lineByteEnd {
					break
				}
				return true
			}
		}
		if lineByte[src[j]] == lineByteHides {
			return true
		}
		if start >= 2 && (src[start-2] == '\\' || src[start-2] == '\r' && start >= 3 && src[start-3] == '\\') {
			return true
		}
	}
	if !isIdentByte(src[j]) {
		return false
	}
	s := j
	for s > 0 && isIdentByte(src[s-1]) {
		s--
	}
	return names.set[string(src[s:j+1])]
}

// calledAtNames are sets calledAt is compared over: short and long names,
// names with digits, underscores and bytes from 0x80.
var calledAtNames = NewNames("size", "x", "_", "make_layout", "a1", "SM90_64x8x16_F16F16F16_SS", "é", "local_tile_partition_x")

// sameCalledAt fails t where calledAt differs from calledAtReference at an
// opener of src.
func sameCalledAt(t *testing.T, name string, src []byte) {
	t.Helper()
	for o := range src {
		if c := src[o]; c != '(' && c != '<' && c != '{' {
			continue
		}
		for _, names := range []*Names{calledAtNames, runCalls} {
			if got, want := calledAt(src, o, names), calledAtReference(src, o, names); got != want {
				t.Fatalf("%s: calledAt at %d = %v, the reference %v", name, o, got, want)
			}
		}
	}
}

func TestCalledAtIsReference(t *testing.T) {
	for _, src := range []string{
		"size(", "x (", "  size\n(", "a1 /* c */ (", "// size\n(", "#define A size\n(", "size \\\n(",
		"make_layout(", "xmake_layout(", "make_layoutx(", "_make_layout(", "SM90_64x8x16_F16F16F16_SS<",
		"a = local_tile_partition_x{", "é(", "xé(", "123size(", "12345678size(", "123456789_(",
		"a very long line of text that holds no hiding byte at all but ends in a name\n(",
		"a very long line of text that holds a / far before its end, at sixty-four bytes\n(",
		"a very long line of text # with a hash inside it and then a name like size\n  (",
		"first line\\\nsecond line of more than eight bytes size\n(",
	} {
		sameCalledAt(t, src, []byte(src))
	}
	files, _ := cutlassCute(t)
	for i, src := range files {
		if i%4 == 0 { // a quarter of them: every opener of a file is asked
			sameCalledAt(t, "cutlass", src)
		}
	}
}

func FuzzCalledAtIsReference(f *testing.F) {
	for _, s := range []string{"size(", "  size\n(", "// x\n  a1 {", "long_name_here_x<", "é\\\n(x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { sameCalledAt(t, "fuzz", []byte(src)) })
}

// TestWordTests: notIdentBytes and lineBytes mark a byte, at any of the
// eight places of a word, exactly where the byte tests they stand for
// say so, whatever the other seven bytes are (a sum of one byte must not
// carry into the next).
func TestWordTests(t *testing.T) {
	for _, fill := range []byte{'a', ' ', 0x00, 0x7f, 0x80, 0xff, '_', '9', '@', '`', '\n', '/', '#', '\\'} {
		for b := 0; b < 256; b++ {
			for p := range 8 {
				var w [8]byte
				for k := range w {
					w[k] = fill
				}
				w[p] = byte(b)
				x := binary.LittleEndian.Uint64(w[:])
				notIdent, line := notIdentBytes(x), lineBytes(x)
				for k, c := range w {
					if got, want := notIdent>>(8*k)&0xff, bit(!isIdentByte(c)); got != want {
						t.Fatalf("notIdentBytes(%q): byte %d is %#x, want %#x", w[:], k, got, want)
					}
					if got, want := line>>(8*k)&0xff, bit(lineByte[c] != 0); got != want {
						t.Fatalf("lineBytes(%q): byte %d is %#x, want %#x", w[:], k, got, want)
					}
				}
			}
		}
	}
}

// bit is 0x80 for true, 0 for false: a byte's mark in the word tests.
func bit(b bool) uint64 {
	if b {
		return 0x80
	}
	return 0
}

// TestNamesHas: a set answers for its own names alone, whatever shape
// the others share with them (first or last byte, length, a length past
// the shapes' 63 bits), and calledAt asks the set it is given.
func TestNamesHas(t *testing.T) {
	long := strings.Repeat("a", 70)
	names := NewNames("foo", "bar", "x", long, "é")
	for w, want := range map[string]bool{
		"foo": true, "bar": true, "x": true, long: true, "é": true,
		"": false, "fo": false, "fob": false, "boo": false, "bax": false, "y": false, "xx": false,
		long + "a": false, long[:69]: false, strings.Repeat("a", 69) + "b": false, "\xc3": false,
	} {
		if got := names.Has([]byte(w)); got != want {
			t.Errorf("Has(%q) = %v, want %v", w, got, want)
		}
		if got := names.Contains(w); got != want {
			t.Errorf("Contains(%q) = %v, want %v", w, got, want)
		}
	}
	src := []byte("bar(x); foo(y); qux(z);")
	for k, set := range []*Names{NewNames("foo"), NewNames("bar"), NewNames("qux")} {
		for o, want := range map[int]bool{3: k == 1, 11: k == 0, 19: k == 2} {
			if got := calledAt(src, o, set); got != want {
				t.Errorf("set %d: calledAt at %d = %v, want %v", k, o, got, want)
			}
		}
	}
}
