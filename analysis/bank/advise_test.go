package bank

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

func mustNotation(t testing.TB, s string) layout.Value {
	t.Helper()
	v, err := readNotation(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func adviseCase(t testing.TB, smem, tv string, bits int, op Op, matrices int) *Advice {
	t.Helper()
	a := Access{Smem: mustNotation(t, smem), TV: *(mustNotation(t, tv).(*layout.Layout)), ElemBits: bits, Op: op, Matrices: matrices}
	adv, err := Advise(a)
	if err != nil {
		t.Fatalf("Advise(%s, %s, %d): %v", smem, tv, bits, err)
	}
	return adv
}

// checkCandidates checks every candidate against the model and against the
// layout it replaces: conflict-free at the kept width, the inner layout
// unchanged under a swizzle that permutes its image, or a padding that
// keeps the size.
func checkCandidates(t *testing.T, adv *Advice) {
	t.Helper()
	inner, offset, err := splitSmem(adv.Access.Smem)
	if err != nil {
		t.Fatal(err)
	}
	want := imageSet(t, withSwizzle(layout.Swizzle{}, offset, inner))
	vecElems := adv.VectorBytes * 8 / adv.Access.ElemBits
	for _, c := range adv.Candidates {
		a := adv.Access
		a.Smem = c.Layout
		r, err := AnalyzeAccess(a)
		if err != nil {
			t.Fatalf("%s: %v", c.String(), err)
		}
		if r.Wavefronts != r.Ideal || r.Wavefronts != c.Report.Wavefronts {
			t.Errorf("%s: the model gives %d wavefronts (ideal %d), the advice said %d", c.String(), r.Wavefronts, r.Ideal, c.Report.Wavefronts)
		}
		if r.VectorBytes != adv.VectorBytes {
			t.Errorf("%s: %d bytes per lane, want %d kept", c.String(), r.VectorBytes, adv.VectorBytes)
		}
		got := imageSet(t, c.Layout)
		if c.Padded() {
			pl := c.Layout.(*layout.Layout)
			if s1, s2 := mustSize(t, *pl), mustSize(t, inner); s1 != s2 {
				t.Errorf("%s: size %d, want %d", c.String(), s1, s2)
			}
			if c.Pad%int64(vecElems) != 0 {
				t.Errorf("%s: a pad of %d breaks %d-element vectors", c.String(), c.Pad, vecElems)
			}
			continue
		}
		if c.Swizzle.B == 0 {
			if c.Layout.String() != withSwizzle(layout.Swizzle{}, offset, inner).String() {
				t.Errorf("%s: no swizzle, want the inner layout %v", c.String(), inner)
			}
			continue
		}
		comp := c.Layout.(layout.Composed)
		if comp.Inner.String() != inner.String() || comp.Outer != c.Swizzle {
			t.Errorf("%s: want %v o %d o %v", c.String(), c.Swizzle, offset, inner)
		}
		if 1<<c.Swizzle.M < vecElems {
			t.Errorf("%s: M = %d splits %d-element vectors", c.String(), c.Swizzle.M, vecElems)
		}
		if len(got) != len(want) {
			t.Errorf("%s: image of %d offsets, want %d", c.String(), len(got), len(want))
		}
		for o := range want {
			if !got[o] {
				t.Errorf("%s: offset %d is no longer in the image: not a permutation", c.String(), o)
				break
			}
		}
	}
}

func mustSize(t *testing.T, l layout.Layout) int64 {
	s, err := l.Size()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// imageSet enumerates a layout's offsets through the algebra's own Eval.
func imageSet(t *testing.T, v layout.Value) map[int64]bool {
	t.Helper()
	f := v.(interface {
		Eval(int64) (int64, error)
	})
	inner, ok := v.(*layout.Layout)
	if c, isComposed := v.(layout.Composed); isComposed {
		inner, ok = &c.Inner, true
	}
	if !ok {
		t.Fatalf("%v is not a layout or a swizzled layout", v)
	}
	n, err := inner.Size()
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]bool{}
	for i := int64(0); i < n; i++ {
		o, err := f.Eval(i)
		if err != nil {
			t.Fatal(err)
		}
		out[o] = true
	}
	return out
}

// A 128x64 fp16 K-major tile read by ldmatrix.x4 (16x16 per warp, every
// 16x16 block in turn): 8 rows of one matrix share banks (8-way); CuTe's
// 128-byte swizzle for 16-bit elements, Sw<3,3,3>, removes every conflict.
func TestAdviseLdmatrixTile(t *testing.T) {
	adv := adviseCase(t, "(128,64):(64,1)", "((16,2),8,(8,4)):((1,1024),128,(16,2048))", 16, LdMatrix, 4)
	if adv.Before.Wavefronts != 1024 || adv.Before.Ideal != 128 {
		t.Errorf("before: %d wavefronts, ideal %d; want 1024, 128", adv.Before.Wavefronts, adv.Before.Ideal)
	}
	b := adv.Best()
	if b == nil || b.Layout.String() != "Sw<3,3,3> o 0 o (128,64):(64,1)" || !b.Canonical {
		t.Fatalf("best = %v, want the canonical Sw<3,3,3> o 0 o (128,64):(64,1)", b)
	}
	if adv.VectorBytes != 16 {
		t.Errorf("kept %d bytes per lane, want 16", adv.VectorBytes)
	}
	// Sw<3,4,3> (32-byte units) leaves rows 2k, 2k+1 in one bank group.
	for _, c := range adv.Candidates {
		if c.Swizzle == (layout.Swizzle{B: 3, M: 4, S: 3}) {
			t.Errorf("Sw<3,4,3> offered, but it leaves 2-way conflicts on 16-bit elements")
		}
	}
	if !strings.HasPrefix(adv.Summary(), "use Sw<3,3,3> o 0 o (128,64):(64,1): 128 wavefronts, the ideal (now 1024)") {
		t.Errorf("summary %q", adv.Summary())
	}
	checkCandidates(t, adv)
}

// A column read of (8,64):(64,1) with 32-bit elements (lanes 0-7 down rows
// 0-7, four columns 8 apart) has 8-way conflicts; padding rows to 65 fixes
// it, and so does Sw<3,0,6>, which costs no memory and comes first.
func TestAdviseColumnRead(t *testing.T) {
	adv := adviseCase(t, "(8,64):(64,1)", "((8,4),1):((1,64),0)", 32, Load, 0)
	if adv.Before.Wavefronts != 8 || adv.Before.Ideal != 1 {
		t.Errorf("before: %d wavefronts, ideal %d; want 8, 1", adv.Before.Wavefronts, adv.Before.Ideal)
	}
	if b := adv.Best(); b == nil || b.Layout.String() != "Sw<3,0,6> o 0 o (8,64):(64,1)" {
		t.Fatalf("best = %v, want Sw<3,0,6> o 0 o (8,64):(64,1)", b)
	}
	var pad *Candidate
	for i := range adv.Candidates {
		if adv.Candidates[i].Padded() {
			pad = &adv.Candidates[i]
		}
	}
	if pad == nil || pad.Layout.String() != "(8,64):(65,1)" || pad.Pad != 1 || pad.Row != 64 || pad.ExtraElems != 7 {
		t.Fatalf("padding = %+v, want (8,64):(65,1), 1 element per 64-element row, 7 more elements", pad)
	}
	if last := adv.Candidates[len(adv.Candidates)-1]; !last.Padded() {
		t.Errorf("padding ranks after every swizzle; last is %s", last.String())
	}
	checkCandidates(t, adv)
}

// Rows padded by whole vectors: a 16-byte row read of 32-bit elements pads by 4.
func TestAdviseCanonicalAndPaddingByVectors(t *testing.T) {
	adv := adviseCase(t, "(32,32):(32,1)", "(32,4):(1,32)", 32, Load, 0)
	if b := adv.Best(); b == nil || b.Layout.String() != "Sw<3,2,3> o 0 o (32,32):(32,1)" || !b.Canonical {
		t.Fatalf("best = %v, want the canonical Sw<3,2,3>", b)
	}
	last := adv.Candidates[len(adv.Candidates)-1]
	if !last.Padded() || last.Layout.String() != "(32,32):(36,1)" {
		t.Errorf("padding %s, want (32,32):(36,1)", last.String())
	}
	checkCandidates(t, adv)
}

// A swizzle that splits the vectors is replaced by one that keeps them.
func TestAdviseRestoresVectorWidth(t *testing.T) {
	adv := adviseCase(t, "Sw<3,2,3> o 0 o (128,64):(64,1)", "(32,8,8):(1,128,1024)", 16, Load, 0)
	if adv.Before.VectorBytes != 8 || adv.VectorBytes != 16 {
		t.Errorf("before %d bytes per lane, kept %d; want 8 and 16", adv.Before.VectorBytes, adv.VectorBytes)
	}
	if adv.Already {
		t.Errorf("conflict-free but at half the width: not already done")
	}
	if b := adv.Best(); b == nil || b.Layout.String() != "Sw<3,3,3> o 0 o (128,64):(64,1)" {
		t.Fatalf("best = %v", b)
	}
	checkCandidates(t, adv)
}

// The offset of a swizzled layout stays.
func TestAdviseKeepsOffset(t *testing.T) {
	adv := adviseCase(t, "Sw<0,0,0> o 64 o (8,64):(64,1)", "((8,4),1):((1,64),0)", 32, Load, 0)
	b := adv.Best()
	if b == nil || !strings.Contains(b.Layout.String(), " o 64 o (8,64):(64,1)") {
		t.Fatalf("best = %v, want the offset 64 kept", b)
	}
	for _, c := range adv.Candidates {
		if c.Padded() {
			t.Errorf("padding offered with an offset: %s", c.String())
		}
	}
	checkCandidates(t, adv)
}

func TestAdviseAlready(t *testing.T) {
	adv := adviseCase(t, "Sw<3,3,3> o 0 o (128,64):(64,1)", "((16,2),8):((1,1024),128)", 16, LdMatrix, 4)
	if !adv.Already || adv.Best() != nil || adv.Reason != "" {
		t.Fatalf("already = %v, best %v, reason %q", adv.Already, adv.Best(), adv.Reason)
	}
	if !strings.Contains(adv.Summary(), "already free of bank conflicts at 16 bytes per lane") {
		t.Errorf("summary %q", adv.Summary())
	}
}

// 48 elements, lanes 0-15 at 0..15 and 16-31 at 32..47: only a swizzle
// reading bit 5 could part them, and none that does keeps offsets below 48;
// a 1-D layout has no rows to pad.
func TestAdviseNone(t *testing.T) {
	adv := adviseCase(t, "48:1", "((16,2),1):((1,32),0)", 32, Load, 0)
	if adv.Best() != nil || adv.Already {
		t.Fatalf("best %v, already %v: want none", adv.Best(), adv.Already)
	}
	for _, want := range []string{"no swizzle or padding makes the access conflict-free", "none even reduces them (2 wavefronts where 1 would do)", "outside the layout's image (48 elements, offsets up to 47)"} {
		if !strings.Contains(adv.Summary(), want) {
			t.Errorf("summary %q lacks %q", adv.Summary(), want)
		}
	}
}

// A 16-byte ldmatrix row of 8-bit elements keeps 16 elements whole (M >= 4).
func TestAdviseVectorBound(t *testing.T) {
	adv := adviseCase(t, "(64,128):(128,1)", "((16,2),16):((1,1024),64)", 8, LdMatrix, 4)
	if b := adv.Best(); b == nil || b.Layout.String() != "Sw<3,4,3> o 0 o (64,128):(128,1)" {
		t.Fatalf("best = %v, want Sw<3,4,3> (16-byte units of 8-bit elements)", b)
	}
	for _, c := range adv.Candidates {
		if !c.Padded() && c.Swizzle.M < 4 {
			t.Errorf("%s splits 16-element vectors", c.String())
		}
	}
	checkCandidates(t, adv)
}

func TestCanonicalSwizzles(t *testing.T) {
	for bits, m := range map[int]int{4: 5, 8: 4, 16: 3, 32: 2, 64: 1, 128: 0} {
		got := canonicalSwizzles(bits)
		if len(got) != 3 || !got[layout.Swizzle{B: 3, M: m, S: 3}] || !got[layout.Swizzle{B: 1, M: m, S: 3}] {
			t.Errorf("%d-bit atoms: %v, want Sw<1..3,%d,3>", bits, got, m)
		}
	}
	if got := canonicalSwizzles(6); len(got) != 0 {
		t.Errorf("6-bit atoms: %v, want none", got)
	}
}

func TestAdviseErrors(t *testing.T) {
	tv := mustNotation(t, "(32,1):(1,0)").(*layout.Layout)
	for _, tc := range []struct {
		name string
		a    Access
		want string
	}{
		{"element bits", Access{Smem: mustNotation(t, "64:1"), TV: *tv, ElemBits: 12}, "elements of 12 bits"},
		{"not a layout", Access{Smem: layout.Int(64), TV: *tv, ElemBits: 32}, "is not a layout"},
		{"a swizzle alone", Access{Smem: layout.Swizzle{B: 3, M: 3, S: 3}, TV: *tv, ElemBits: 32}, "is not a layout"},
		{"no layout", Access{TV: *tv, ElemBits: 32}, "no shared-memory layout"},
		{"partial warp", Access{Smem: mustNotation(t, "64:1"), TV: *(mustNotation(t, "16:1").(*layout.Layout)), ElemBits: 32}, "whole number of warps"},
		{"too large", Access{Smem: mustNotation(t, "(2048,4096):(4096,1)"), TV: *tv, ElemBits: 32}, "too large to search"},
	} {
		_, err := Advise(tc.a)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func BenchmarkAdviseLdmatrixTile(b *testing.B) {
	a := Access{Smem: mustNotation(b, "(128,64):(64,1)"), TV: *(mustNotation(b, "((16,2),8,(8,4)):((1,1024),128,(16,2048))").(*layout.Layout)), ElemBits: 16, Op: LdMatrix, Matrices: 4}
	for b.Loop() {
		if _, err := Advise(a); err != nil {
			b.Fatal(err)
		}
	}
}

// A swizzle that causes the conflicts: the advice drops it.
func TestAdviseDropsAHarmfulSwizzle(t *testing.T) {
	// Rows of 64 fp16 read along the row: conflict-free plain, but
	// Sw<3,0,6> XORs the row into the low element bits, breaking the vectors.
	adv := adviseCase(t, "Sw<3,0,6> o 0 o (8,64):(64,1)", "((8,4),8,2):((64,1),8,4)", 16, Load, 0)
	if adv.Before.Wavefronts == adv.Before.Ideal && adv.Before.VectorBytes == 16 {
		t.Fatalf("the case is already fine: %d wavefronts, %d bytes", adv.Before.Wavefronts, adv.Before.VectorBytes)
	}
	if b := adv.Best(); b == nil || b.Layout.String() != "(8,64):(64,1)" {
		t.Fatalf("best = %v, want the inner layout (8,64):(64,1)", b)
	}
	checkCandidates(t, adv)
}

// Swizzles that flip only bits above the 128-byte phase window are skipped:
// they cost what the inner layout costs. The search agrees with trying them.
func TestAdviseSkipsSwizzlesAboveTheBanks(t *testing.T) {
	a := Access{Smem: mustNotation(t, "(128,64):(64,1)"), TV: *(mustNotation(t, "((16,2),8,(8,4)):((1,1024),128,(16,2048))").(*layout.Layout)), ElemBits: 16, Op: LdMatrix, Matrices: 4}
	plain, err := AnalyzeAccess(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, sw := range []layout.Swizzle{{B: 1, M: 6, S: 1}, {B: 2, M: 6, S: 3}, {B: 3, M: 7, S: 3}} {
		a.Smem = layout.Composed{Outer: sw, Offset: layout.Int(0), Inner: *(mustNotation(t, "(128,64):(64,1)").(*layout.Layout))}
		r, err := AnalyzeAccess(a)
		if err != nil {
			t.Fatal(err)
		}
		if r.Wavefronts != plain.Wavefronts || r.Ideal != plain.Ideal {
			t.Errorf("%v: %d/%d wavefronts, the inner layout %d/%d", sw, r.Wavefronts, r.Ideal, plain.Wavefronts, plain.Ideal)
		}
	}
}

// TestAdviseMatchesExhaustiveSearch checks the search on random row-major
// tiles and lane patterns against every swizzle of the space, unpruned: a
// swizzle that permutes the image, keeps the width and is conflict-free is
// among the candidates, and every candidate is one.
func TestAdviseMatchesExhaustiveSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	conflicted, advised := 0, 0
	defer func() {
		if conflicted < 20 || advised < 10 {
			t.Errorf("%d of 40 cases conflict, %d get advice: the generator no longer tests the search", conflicted, advised)
		}
	}()
	for n := 0; n < 40; n++ {
		logR, logC := 2+rng.IntN(4), 3+rng.IntN(4) // rows 4..32, columns 8..64
		R, C := int64(1)<<logR, int64(1)<<logC
		bitsChoice := []int{8, 16, 32, 64}[rng.IntN(4)]
		logV := rng.IntN(min(logC, 3) + 1)
		if int64(1)<<logV*int64(bitsChoice) > 128 {
			logV = 0
		}
		// Coordinate bits: rows 0..logR-1, then columns; the value mode takes
		// the lowest column bits, the 5 lane bits any others (repeats broadcast).
		var free []int
		for b := 0; b < logR+logC; b++ {
			if b < logR || b >= logR+logV {
				free = append(free, b)
			}
		}
		lane := make([]int64, 5)
		for i := range lane {
			lane[i] = int64(1) << free[rng.IntN(len(free))]
		}
		tv := layout.Make(
			layout.Tup(layout.Tup(layout.Ints(2, 2, 2, 2, 2).Elems()...), layout.Int(int64(1)<<logV)),
			layout.Tup(layout.Tup(layout.Ints(lane...).Elems()...), layout.Int(R)))
		inner := layout.Make(layout.Ints(R, C), layout.Ints(C, 1))
		a := Access{Smem: layout.Box(inner), TV: tv, ElemBits: bitsChoice}
		adv, err := Advise(a)
		if err != nil {
			t.Fatalf("%v %v %d: %v", inner, tv, bitsChoice, err)
		}
		if adv.Already {
			continue
		}
		conflicted++
		if adv.Best() != nil {
			advised++
		}
		checkCandidates(t, adv)
		offered := map[layout.Swizzle]bool{}
		for _, c := range adv.Candidates {
			if !c.Padded() {
				offered[c.Swizzle] = true
			}
		}
		img, _ := imageOf(inner, 0)
		vecElems := adv.VectorBytes * 8 / bitsChoice
		for b := 1; b <= maxSwizzleBits; b++ {
			for m := 0; m <= img.topBit; m++ {
				for s := b; m+s+b <= img.topBit; s++ {
					sw := layout.Swizzle{B: b, M: m, S: s}
					if 1<<m < vecElems || !img.permutedBy(sw) {
						continue
					}
					t2 := a
					t2.Smem = layout.Composed{Outer: sw, Offset: layout.Int(0), Inner: inner}
					r, err := AnalyzeAccess(t2)
					free := err == nil && r.VectorBytes >= adv.VectorBytes && r.Wavefronts == r.Ideal
					if free != offered[sw] {
						t.Errorf("%v %v %d-bit: %v conflict-free %v, offered %v", inner, tv, bitsChoice, sw, free, offered[sw])
					}
				}
			}
		}
	}
}

// Layouts given by pointer are read as the values they point to.
func TestAdvisePointers(t *testing.T) {
	tv := mustNotation(t, "((8,4),1):((1,64),0)").(*layout.Layout)
	l := mustNotation(t, "(8,64):(64,1)").(*layout.Layout)
	c := layout.Composed{Outer: layout.Swizzle{B: 1, M: 0, S: 6}, Offset: layout.Int(0), Inner: *l}
	for _, smem := range []layout.Value{l, &c} {
		adv, err := Advise(Access{Smem: smem, TV: *tv, ElemBits: 32})
		if err != nil {
			t.Fatalf("%v: %v", smem, err)
		}
		if b := adv.Best(); b == nil || b.Layout.String() != "Sw<3,0,6> o 0 o (8,64):(64,1)" {
			t.Errorf("%v: best %v", smem, b)
		}
	}
	if _, _, err := splitSmem(layout.Int(3)); err == nil || !strings.Contains(err.Error(), "3 is not a layout or a swizzled layout") {
		t.Errorf("splitSmem(3): %v", err)
	}
}
