package sheetedit

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestEditKinds(t *testing.T) {
	const src = "A = 1\nB = 2\n"
	frag := byte(0) // mma_atom("SM80_16x8x16_F32F16F16F32_TN")
	comment := byte(slices.Index(Fragments, "# a comment"))
	for _, c := range []struct {
		op   [OpSize]byte
		want string
	}{
		{[OpSize]byte{0, 0, 0, frag, 0}, Fragments[0] + src},
		{[OpSize]byte{1, 0, 0, frag, 0}, "\n" + src},
		{[OpSize]byte{2, 0, 0, frag, 1}, "= 1\nB = 2\n"},
		{[OpSize]byte{4, 0x80, 0, comment, 0}, "A = 1\n# a comment\nB = 2\n"},
		{[OpSize]byte{5, 0, 0, frag, 0}, "B = 2\n"},
		{[OpSize]byte{6, 0, 0, frag, 0}, "A = 1\nA = 1\nB = 2\n"},
		{[OpSize]byte{7, 0, 0, frag, 0}, Fragments[0] + "\nB = 2\n"},
		{[OpSize]byte{8, 0, 0, frag, 255}, "B = 2\nA = 1\n"},
		{[OpSize]byte{9, 0, 0, frag, 3}, "mmaA = 1\nB = 2\n"},
		{[OpSize]byte{10, 0, 0, frag, 0}, "\nB = 2\n"},
	} {
		if got := Edit(src, c.op); got != c.want {
			t.Errorf("Edit(%q, %v) = %q, want %q", src, c.op, got, c.want)
		}
	}
}

// TestEditsKeepUTF8: every kind of edit at every place of a text with
// multi-byte characters leaves valid UTF-8.
func TestEditsKeepUTF8(t *testing.T) {
	const src = "é = 𝔸\n# ü\nA = (4,2):(1,4)\n"
	for kind := range 12 {
		for at := 0; at < 1<<16; at += 977 {
			for _, n := range []byte{0, 1, 7, 200} {
				for frag := range len(Fragments) {
					op := [OpSize]byte{byte(kind), byte(at >> 8), byte(at), byte(frag), n}
					if got := Edit(src, op); !utf8.ValidString(got) {
						t.Fatalf("Edit(%q, %v) = %q: not UTF-8", src, op, got)
					}
				}
			}
		}
	}
}
