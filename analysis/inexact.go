package analysis

import (
	"encoding/binary"
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// CuTe checks divisibility weakly: it accepts some compositions whose result
// is not A o B, and divides by tiles that do not divide the layout (the
// rest mode is a ceil-div, so the result is larger than its input). The
// sheet reproduces CuTe's answer and says where it is not the mathematical
// one, since a kernel built on it reads or writes the wrong elements.

// maxCheckedSize bounds the indices checkComposition walks.
const maxCheckedSize = 1 << 16

// inexactComposition is the first index i < size(B) where r(i) != A(B(i)),
// with both values; ok is false when there is none (or it cannot be told).
// The answer is a function of the three layouts' integers: a generated
// sheet composes the same few layouts on thousands of lines, so answers
// are kept by them (compositionChecks).
func inexactComposition(a, b, r layout.Layout) (i, want, got int64, ok bool) {
	var buf [compositionKeyMax]byte
	key, keyed := appendLayoutKey(buf[:0], a)
	if keyed {
		key, keyed = appendLayoutKey(key, b)
	}
	if keyed {
		key, keyed = appendLayoutKey(key, r)
	}
	if !keyed {
		return walkComposition(a, b, r)
	}
	ans, found := compositionChecks.get(key)
	if found {
		return ans.i, ans.want, ans.got, ans.ok
	}
	ans.i, ans.want, ans.got, ans.ok = walkComposition(a, b, r)
	compositionChecks.put(key, ans)
	return ans.i, ans.want, ans.got, ans.ok
}

// compositionChecks are inexactComposition's answers by the layouts
// checked (appendLayoutKey of A, B and the result), at most
// textMemoMax of them, shared by every sheet.
var compositionChecks textMemo[[]byte, compositionAnswer]

// compositionAnswer is what inexactComposition returns.
type compositionAnswer struct {
	i, want, got int64
	ok           bool
}

// compositionKeyMax is the longest key compositionChecks keeps; layouts
// whose key is longer are checked every time.
const compositionKeyMax = 256

// appendLayoutKey appends to key the encoding of l: its shape's and its
// stride's trees, a tuple as its length and its elements, a leaf as its
// static mark and its integer. ok is false when a leaf is no plain integer
// (an unknown, a basis, _) or the key would pass compositionKeyMax: the
// encoding then does not tell every layout apart, or is not worth keeping.
func appendLayoutKey(key []byte, l layout.Layout) ([]byte, bool) {
	key, ok := appendTupleKey(key, l.Shape)
	if !ok {
		return key, false
	}
	return appendTupleKey(key, l.Stride)
}

func appendTupleKey(key []byte, t layout.IntTuple) ([]byte, bool) {
	if len(key)+2*binary.MaxVarintLen64 > compositionKeyMax {
		return key, false
	}
	if t.IsLeaf() {
		if !layout.IsPlainInt(t) {
			return key, false
		}
		mark := byte('d')
		if t.IsStatic() {
			mark = 's'
		}
		return binary.AppendVarint(append(key, mark), t.Value()), true
	}
	key = binary.AppendUvarint(append(key, '('), uint64(t.Len()))
	for i := range t.Len() {
		var ok bool
		if key, ok = appendTupleKey(key, t.At(i)); !ok {
			return key, false
		}
	}
	return key, true
}

// walkComposition is inexactComposition, found by evaluating the layouts
// at every index of B.
func walkComposition(a, b, r layout.Layout) (i, want, got int64, ok bool) {
	n, err := b.Size()
	if err != nil || n > maxCheckedSize {
		return 0, 0, 0, false
	}
	for i := range n {
		bi, err := b.Eval(i)
		if err != nil {
			return 0, 0, 0, false
		}
		want, err := a.Eval(bi)
		if err != nil {
			return 0, 0, 0, false
		}
		got, err := r.Eval(i)
		if err != nil {
			return 0, 0, 0, false
		}
		if want != got {
			return i, want, got, true
		}
	}
	return 0, 0, 0, false
}

func checkComposition(c *CallSite) []CallFinding {
	if len(c.Args) != 2 {
		return nil
	}
	a, okA := c.Args[0].(*layout.Layout)
	b, okB := c.Args[1].(*layout.Layout)
	r, okR := c.Result.(*layout.Layout)
	if !okA || !okB || !okR {
		return nil
	}
	i, want, got, bad := inexactComposition(*a, *b, *r)
	if !bad {
		return nil
	}
	bi, _ := b.Eval(i)
	return []CallFinding{{Finding: Finding{Range: c.Call.Span(), Severity: SeverityWarning, Code: CodeInexact,
		Message: fmt.Sprintf("CuTe accepts composition(%v, %v) and returns %v, but that is not A o B: at i = %d, A(B(%d)) = A(%d) = %d while the result gives %d (CuTe's divisibility check is weak: a stride of B that neither divides a mode of A nor is a multiple of it)", shown{a}, shown{b}, shown{r}, i, i, bi, want, got)}}}
}

func checkDivideSize(c *CallSite) []CallFinding {
	if len(c.Args) != 2 {
		return nil
	}
	a, okA := c.Args[0].(*layout.Layout)
	r, okR := c.Result.(*layout.Layout)
	if !okA || !okR {
		return nil
	}
	in, err1 := a.Size()
	out, err2 := r.Size()
	if err1 != nil || err2 != nil || out <= in {
		return nil
	}
	return []CallFinding{{Finding: Finding{Range: c.Call.Span(), Severity: SeverityWarning, Code: CodeInexact,
		Message: fmt.Sprintf("the tile does not divide %v: CuTe rounds the rest up, so the result %v has %d coordinates where the layout has %d; the last tiles run past it and need predication", shown{a}, shown{r}, out, in)}}}
}
