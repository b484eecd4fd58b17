package source

import (
	"bytes"
	"slices"
	"testing"
)

// cppTokenizeReference is cppTokenize before cppScanPlain: every token
// made by its one loop.
func cppTokenizeReference(src []byte, toks []token, dropAsm bool, params *paramDrops) []token {
	toks = reserveTokens(src, toks)
	asm := asmStatement{base: len(toks)}
	if params != nil {
		params.start(src, len(toks))
	}
	lineStart := true // only whitespace since the last newline
	for i := 0; i < len(src); {
		c := src[i]
		var t token
		switch lexClass[c] {
		case lexBlank:
			// A run of blanks and newlines (indentation) in one loop.
			for {
				if c == '\n' {
					lineStart = true
				}
				if i++; i == len(src) {
					break
				}
				if c = src[i]; lexClass[c] != lexBlank {
					break
				}
			}
			continue
		case lexIdent:
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			t = makeToken(tIdent, i, j, -1)
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isLiteralPrefix(src[i:j]) {
				if src[j] == '"' && src[j-1] == 'R' {
					t.end = rawStringEnd(src, j)
				} else {
					t.end = cppQuotedEnd(src, j+1, src[j])
				}
				t.kind = tString
			}
		case lexDigit:
			t = makeToken(tNumber, i, numberEnd(src, i, true), -1)
		case lexQuote:
			t = makeToken(tString, i, cppQuotedEnd(src, i+1, c), -1)
		case lexSlash:
			if i+1 < len(src) && src[i+1] == '/' {
				i = lineEnd(src, i)
				continue
			}
			if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					i = len(src)
					continue
				}
				i += 2 + end + 2
				continue
			}
			t = punctToken(src, i, 1, -1) // "/" ("//" opened a comment)
		case lexHash:
			if lineStart {
				i = directiveEndReference(src, i)
				continue
			}
			t = punctToken(src, i, punctLen(src, i), -1)
		case lexDot:
			if i+1 < len(src) && isDigit(src[i+1]) {
				t = makeToken(tNumber, i, numberEnd(src, i, true), -1)
			} else {
				t = punctToken(src, i, punctLen(src, i), -1)
			}
		default:
			t = punctToken(src, i, punctLen(src, i), -1)
		}
		lineStart = false
		toks = append(toks, t)
		i = t.end
		if dropAsm && (asm.state != asmNone || t.kind == tIdent && isAsmWord(src[t.start:t.end])) {
			n := len(toks)
			if toks = asm.step(src, toks); len(toks) < n && params != nil {
				params.asmDropped(len(toks))
			}
		}
		if params != nil && (params.state != paramsNone || params.clean > 0 || opensOrCloses[t.punct]) {
			toks = params.step(toks)
		}
	}
	return toks
}

// sameScan fails t when cppTokenize makes other tokens than
// cppTokenizeReference from src: with asm statements' insides left out or
// not, and with lint's parameter lists left out.
func sameScan(t *testing.T, name string, src []byte) {
	t.Helper()
	for _, dropAsm := range []bool{true, false} {
		if got, want := cppTokenize(src, nil, dropAsm, nil), cppTokenizeReference(src, nil, dropAsm, nil); !slices.Equal(got, want) {
			t.Errorf("%s: cppTokenize(dropAsm %v) makes %d tokens, the reference %d (or they differ)", name, dropAsm, len(got), len(want))
		}
		// Tokens appended to others, in a slice with little room.
		prefix := []token{{start: 1, end: 2}}
		if got, want := cppTokenize(src, slices.Clip(prefix), dropAsm, nil), cppTokenizeReference(src, slices.Clip(prefix), dropAsm, nil); !slices.Equal(got, want) {
			t.Errorf("%s: cppTokenize(dropAsm %v) after a token differs from the reference", name, dropAsm)
		}
	}
	if got, want := cppTokenize(src, nil, true, &paramDrops{}), cppTokenizeReference(src, nil, true, &paramDrops{}); !slices.Equal(got, want) {
		t.Errorf("%s: cppTokenize with lint's parameter drops differs from the reference", name)
	}
}

// directiveEndReference is directiveEnd as first written: the end of a preprocessor line starting at i, with its
// backslash continuations and any comment in it.
func directiveEndReference(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '\n':
			return i
		case '/':
			if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return len(src)
				}
				i += 2 + end + 2
				continue
			}
		}
		i++
	}
	return len(src)
}

// sameDirectiveEnds fails t when directiveEnd differs from the
// reference at a "#" of src.
func sameDirectiveEnds(t *testing.T, name string, src []byte) {
	t.Helper()
	for i := range src {
		if src[i] != '#' {
			continue
		}
		if got, want := directiveEnd(src, i), directiveEndReference(src, i); got != want {
			t.Errorf("%s: directiveEnd(%d) = %d, want %d", name, i, got, want)
		}
	}
}
