package gmma

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// parseValue reads the notation of the oracle files: "S:D" or "Sw<B,M,S> o OFF o S:D".
func parseValue(s string) (layout.Value, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "Sw<") {
		return layout.Boxed(parseLayout(s))
	}
	parts := strings.SplitN(s, " o ", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("bad swizzled layout %q", s)
	}
	var sw layout.Swizzle
	if _, err := fmt.Sscanf(parts[0], "Sw<%d,%d,%d>", &sw.B, &sw.M, &sw.S); err != nil {
		return nil, fmt.Errorf("bad swizzle %q: %v", parts[0], err)
	}
	off, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return nil, err
	}
	l, err := parseLayout(parts[2])
	if err != nil {
		return nil, err
	}
	return layout.Composed{Outer: sw, Offset: layout.Int(off), Inner: l}, nil
}

func parseLayout(s string) (layout.Layout, error) {
	i := strings.Index(s, ":")
	if i < 0 {
		return layout.Layout{}, fmt.Errorf("bad layout %q", s)
	}
	sh, err := parseTuple(s[:i])
	if err != nil {
		return layout.Layout{}, err
	}
	st, err := parseTuple(s[i+1:])
	if err != nil {
		return layout.Layout{}, err
	}
	return layout.Make(sh, st), nil
}

func parseTuple(s string) (layout.IntTuple, error) {
	p := tupleParser{s: s}
	t, err := p.tuple()
	if err == nil && p.i != len(s) {
		err = fmt.Errorf("trailing text in %q", s)
	}
	return t, err
}

type tupleParser struct {
	s string
	i int
}

func (p *tupleParser) tuple() (layout.IntTuple, error) {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		var elems []layout.IntTuple
		for {
			e, err := p.tuple()
			if err != nil {
				return layout.IntTuple{}, err
			}
			elems = append(elems, e)
			if p.i >= len(p.s) {
				return layout.IntTuple{}, fmt.Errorf("unclosed tuple in %q", p.s)
			}
			c := p.s[p.i]
			p.i++
			if c == ')' {
				return layout.Tup(elems...), nil
			}
			if c != ',' {
				return layout.IntTuple{}, fmt.Errorf("unexpected %q in %q", c, p.s)
			}
		}
	}
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	v, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
	if err != nil {
		return layout.IntTuple{}, fmt.Errorf("bad integer in %q at %d", p.s, p.i)
	}
	p.i = j
	return layout.Int(v), nil
}

func parsePair(s string) ([2]int64, error) {
	var a, b int64
	_, err := fmt.Sscanf(s, "(%d,%d)", &a, &b)
	return [2]int64{a, b}, err
}
