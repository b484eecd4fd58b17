package analysis

import (
	"sort"
	"strings"
)

// CompletionKind says what a completion inserts.
type CompletionKind int

const (
	CompleteName      CompletionKind = iota + 1 // a sheet name in scope
	CompleteOperation                           // a CuTe operation
	CompleteSwizzle                             // a swizzle atom
	CompleteTag                                 // LayoutLeft, LayoutRight
)

// Completion is one proposal at a position.
type Completion struct {
	Label  string
	Kind   CompletionKind
	Detail string // the signature, the value, what the atom is for
	Doc    string
	Insert string // the text that replaces the word being typed
}

// swizzleAtoms are the swizzles of CuTe's shared-memory atoms. CuTe keeps
// them on byte addresses (Sw<3,4,3> o smem_ptr[16b](unset) o L); on element
// offsets the base bit M drops by log2 of the element's bytes.
var swizzleAtoms = []Completion{
	{Label: "Sw<3,3,3>", Detail: "128-byte swizzle (SW128) on 16-bit element offsets: 8 rows of 64 fp16/bf16"},
	{Label: "Sw<2,3,3>", Detail: "64-byte swizzle (SW64) on 16-bit element offsets: 8 rows of 32 fp16/bf16"},
	{Label: "Sw<1,3,3>", Detail: "32-byte swizzle (SW32) on 16-bit element offsets: 8 rows of 16 fp16/bf16"},
	{Label: "Sw<3,2,3>", Detail: "128-byte swizzle (SW128) on 32-bit element offsets: 8 rows of 32 fp32/tf32"},
	{Label: "Sw<3,4,3>", Detail: "128-byte swizzle (SW128) on byte addresses: as CuTe prints it with a smem_ptr stage, or on 8-bit element offsets"},
	{Label: "Sw<2,4,3>", Detail: "64-byte swizzle (SW64) on byte addresses, or on 8-bit element offsets"},
	{Label: "Sw<1,4,3>", Detail: "32-byte swizzle (SW32) on byte addresses, or on 8-bit element offsets"},
}

// wordBefore is the identifier that ends at offset and where it starts.
func wordBefore(src []byte, offset int) (string, int) {
	start := offset
	for start > 0 && isIdentByte(src[start-1]) {
		start--
	}
	return string(src[start:offset]), start
}

// Complete proposes what can be typed at offset: CuTe operations (with
// their signatures), names bound before the statement, swizzle atoms and
// layout tags, those starting with the word being typed.
func (s *Sheet) Complete(offset int) []Completion {
	if offset < 0 || offset > len(s.Src) {
		return nil
	}
	word, _ := wordBefore(s.Src, offset)
	var out []Completion
	add := func(c Completion) {
		// A name typed out in full is still offered: its detail shows
		// the value or the signature.
		if strings.HasPrefix(c.Label, word) {
			if c.Insert == "" {
				c.Insert = c.Label
			}
			out = append(out, c)
		}
	}
	stmt := s.StatementAt(offset)
	if stmt < 0 {
		stmt = len(s.File.Statements)
	}
	seen := map[string]bool{}
	for i := len(s.Symbols) - 1; i >= 0; i-- {
		sym := s.Symbols[i]
		if sym.Stmt >= stmt || seen[sym.Name] {
			continue
		}
		seen[sym.Name] = true
		c := Completion{Label: sym.Name, Kind: CompleteName}
		if sym.Value != nil {
			c.Detail = Show(sym.Value, ShowDetailBytes)
		}
		add(c)
	}
	for _, op := range Ops() {
		add(Completion{Label: op.Name, Kind: CompleteOperation, Detail: op.Signature, Doc: op.Doc})
	}
	// Inside the arguments of an operation that reads bare words (the
	// instruction of bank_conflicts: ld, ldmatrix_x4, ...), those words.
	if sig, ok := SignatureAt(s.Src, offset); ok {
		for _, k := range sig.Op.Keywords {
			if !seen[k] {
				add(Completion{Label: k, Kind: CompleteTag, Detail: sig.Op.Name + " keyword"})
			}
		}
	}
	for _, sw := range swizzleAtoms {
		sw.Kind = CompleteSwizzle
		add(sw)
	}
	for _, tag := range []string{"LayoutLeft", "LayoutRight"} {
		add(Completion{Label: tag, Kind: CompleteTag, Detail: "make_layout tag: " + map[string]string{"LayoutLeft": "column-major", "LayoutRight": "row-major"}[tag]})
	}
	// The user's names first, then operations, atoms, tags.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// Signature is the call a position is inside, for signature help.
type Signature struct {
	Op          Op
	Params      []string // the parameters of Op.Signature, as written there
	ActiveParam int
}

// SignatureAt finds the call whose parentheses surround offset, by reading
// the text backwards (the statement may not parse while it is being typed);
// a call left open on an earlier line counts, as brackets continue statements.
func SignatureAt(src []byte, offset int) (Signature, bool) {
	if offset < 0 || offset > len(src) {
		return Signature{}, false
	}
	depth, commas := 0, 0
	for i := offset - 1; i >= 0; i-- {
		switch src[i] {
		case ')', ']', '>':
			depth++
		case '<':
			if depth > 0 {
				depth--
			}
		case '[':
			if depth == 0 {
				return Signature{}, false // inside a tiler, not an argument list
			}
			depth--
		case ',':
			if depth == 0 {
				commas++
			}
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			name, _ := wordBefore(src, skipTemplateArgs(src, i))
			op, ok := LookupOp(name)
			if !ok {
				return Signature{}, false // inside a tuple, not a call
			}
			return Signature{Op: op, Params: params(op.Signature), ActiveParam: commas}, true
		}
	}
	return Signature{}, false
}

// skipTemplateArgs is the offset of the "<" that opens the template
// arguments ending just before offset (select<1,3>( ...), or offset when
// none end there.
func skipTemplateArgs(src []byte, offset int) int {
	if offset == 0 || src[offset-1] != '>' {
		return offset
	}
	for i := offset - 2; i >= 0; i-- {
		switch c := src[i]; {
		case c == '<':
			return i
		case c == ',' || c == ' ' || c == '_' || isIdentByte(c):
		default:
			return offset
		}
	}
	return offset
}

// params splits the first form of a signature "op(A, B [, C])" into its parameters.
func params(sig string) []string {
	open := strings.IndexByte(sig, '(')
	close := strings.IndexByte(sig, ')')
	if open < 0 || close < open {
		return nil
	}
	var out []string
	for _, p := range strings.Split(sig[open+1:close], ",") {
		p = strings.Trim(strings.TrimSpace(p), "[] ")
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
