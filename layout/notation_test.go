package layout

// A reader for the golden corpus's notation, for the algebra's own tests
// only (the product's parser is package grammar, which layout does not import).

import (
	"fmt"
	"strconv"
	"strings"
)

type notationReader struct {
	s   string
	pos int
	// marked: CuTe C++'s print notation, where "8" is a run-time integer
	// and only "_8" a static one (readMarked); otherwise both are static.
	marked bool
}

func readValue(s string) (Value, error) { return readNotation(s, false) }

func readNotation(s string, marked bool) (Value, error) {
	r := &notationReader{s: s, marked: marked}
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	if r.pos != len(r.s) {
		return nil, fmt.Errorf("trailing text %q in %q", r.s[r.pos:], s)
	}
	return v, nil
}

func mustLayout(s string) Layout {
	v, err := readValue(s)
	if err != nil {
		panic(err)
	}
	switch v := v.(type) {
	case *Layout:
		return *v
	case IntTuple:
		if v.IsLeaf() {
			return Make(v, Int(1))
		}
	}
	panic(fmt.Sprintf("%q is not a layout", s))
}

func mustTuple(s string) IntTuple {
	v, err := readValue(s)
	if err != nil {
		panic(err)
	}
	return v.(IntTuple)
}

func (r *notationReader) peek() byte {
	for r.pos < len(r.s) && r.s[r.pos] == ' ' {
		r.pos++
	}
	if r.pos < len(r.s) {
		return r.s[r.pos]
	}
	return 0
}

func (r *notationReader) expect(c byte) error {
	if r.peek() != c {
		return fmt.Errorf("expected %q at %d in %q", c, r.pos, r.s)
	}
	r.pos++
	return nil
}

func (r *notationReader) value() (Value, error) {
	switch {
	case strings.HasPrefix(r.s[r.pos:], "Sw<"):
		sw, err := r.swizzle()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(r.s[r.pos:], " o ") {
			return sw, nil
		}
		r.pos += 3
		off, err := r.tuple()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(r.s[r.pos:], " o ") {
			return nil, fmt.Errorf("expected ' o ' in %q", r.s)
		}
		r.pos += 3
		inner, err := r.layout()
		if err != nil {
			return nil, err
		}
		return Composed{Outer: sw, Offset: off, Inner: inner}, nil
	case strings.HasPrefix(r.s[r.pos:], "Layout"):
		tag := Tag(r.s[r.pos:])
		r.pos = len(r.s)
		return tag, nil
	case r.peek() == '[':
		return r.tiler()
	}
	t, err := r.tuple()
	if err != nil {
		return nil, err
	}
	if r.peek() != ':' {
		return t, nil
	}
	r.pos++
	d, err := r.tuple()
	if err != nil {
		return nil, err
	}
	return Box(Make(t, d)), nil
}

func (r *notationReader) layout() (Layout, error) {
	v, err := r.value()
	if err != nil {
		return Layout{}, err
	}
	l, ok := v.(*Layout)
	if !ok {
		return Layout{}, fmt.Errorf("expected a layout in %q", r.s)
	}
	return *l, nil
}

func (r *notationReader) swizzle() (Swizzle, error) {
	end := strings.IndexByte(r.s[r.pos:], '>')
	if end < 0 {
		return Swizzle{}, fmt.Errorf("unterminated swizzle in %q", r.s)
	}
	parts := strings.Split(r.s[r.pos+3:r.pos+end], ",")
	r.pos += end + 1
	if len(parts) != 3 {
		return Swizzle{}, fmt.Errorf("swizzle needs 3 parameters in %q", r.s)
	}
	var p [3]int
	for i, s := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return Swizzle{}, err
		}
		p[i] = v
	}
	return Swizzle{B: p[0], M: p[1], S: p[2]}, nil
}

func (r *notationReader) tiler() (Tiler, error) {
	if err := r.expect('['); err != nil {
		return Tiler{}, err
	}
	var t Tiler
	for {
		switch c := r.peek(); {
		case c == '_' && r.underscore():
			r.pos++
			t.Modes = append(t.Modes, TilerMode{Skip: true})
		case c == '[':
			sub, err := r.tiler()
			if err != nil {
				return Tiler{}, err
			}
			t.Modes = append(t.Modes, TilerMode{Sub: &sub})
		default:
			v, err := r.value()
			if err != nil {
				return Tiler{}, err
			}
			switch v := v.(type) {
			case *Layout:
				t.Modes = append(t.Modes, TilerMode{Layout: *v})
			case IntTuple:
				if !v.IsLeaf() {
					return Tiler{}, fmt.Errorf("tuple %v in tiler %q", v, r.s)
				}
				t.Modes = append(t.Modes, TilerMode{Layout: Make(v, Int(1)), Int: true})
			default:
				return Tiler{}, fmt.Errorf("unexpected %v in tiler %q", v, r.s)
			}
		}
		switch r.peek() {
		case ';':
			r.pos++
		case ']':
			r.pos++
			return t, nil
		default:
			return Tiler{}, fmt.Errorf("expected ';' or ']' at %d in %q", r.pos, r.s)
		}
	}
}

func (r *notationReader) tuple() (IntTuple, error) {
	switch c := r.peek(); {
	case c == '(':
		r.pos++
		elems := []IntTuple{}
		if r.peek() == ')' {
			r.pos++
			return Tup(elems...), nil
		}
		for {
			e, err := r.tuple()
			if err != nil {
				return IntTuple{}, err
			}
			elems = append(elems, e)
			switch r.peek() {
			case ',':
				r.pos++
			case ')':
				r.pos++
				return Tup(elems...), nil
			default:
				return IntTuple{}, fmt.Errorf("expected ',' or ')' at %d in %q", r.pos, r.s)
			}
		}
	case c == '?':
		r.pos++
		return Unknown(), nil
	case c == '_' && r.underscore():
		r.pos++
		return Underscore(), nil
	case c == '-' || c == '_' || (c >= '0' && c <= '9'):
		if c == '_' {
			r.pos++
		}
		start := r.pos
		if r.pos < len(r.s) && r.s[r.pos] == '-' {
			r.pos++
		}
		for r.pos < len(r.s) && r.s[r.pos] >= '0' && r.s[r.pos] <= '9' {
			r.pos++
		}
		v, err := strconv.ParseInt(r.s[start:r.pos], 10, 64)
		if err != nil {
			return IntTuple{}, err
		}
		var modes []int
		for r.pos < len(r.s) && r.s[r.pos] == '@' {
			r.pos++
			start := r.pos
			for r.pos < len(r.s) && r.s[r.pos] >= '0' && r.s[r.pos] <= '9' {
				r.pos++
			}
			m, err := strconv.Atoi(r.s[start:r.pos])
			if err != nil {
				return IntTuple{}, err
			}
			modes = append([]int{m}, modes...) // printed innermost first
		}
		if r.marked && c != '_' && len(modes) == 0 {
			return Dyn(v), nil
		}
		return Basis(v, modes...), nil
	}
	return IntTuple{}, fmt.Errorf("unexpected %q at %d in %q", r.peek(), r.pos, r.s)
}

// underscore reports whether the '_' at r.pos is CuTe's Underscore (a
// coordinate's "_", a tiler's skipped mode), not the static mark of _8.
func (r *notationReader) underscore() bool {
	next := r.pos + 1
	return next >= len(r.s) || r.s[next] != '-' && (r.s[next] < '0' || r.s[next] > '9')
}
