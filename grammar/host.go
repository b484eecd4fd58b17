package grammar

import (
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// FindMLIRTypes finds every CuTe DSL type (!cute.layout<"...">, ...) in a host
// file (MLIR, or anything that quotes it) and parses each on its own: a
// malformed type is reported (and left out) and the others are returned.
// Positions are those of src.
func FindMLIRTypes(src []byte) ([]*MLIRType, []*Error) {
	text := string(src)
	var (
		types []*MLIRType
		errs  []*Error
		at    = Position{Offset: 0, Line: 1, Column: 1}
	)
	for {
		i := strings.Index(text[at.Offset:], "!cute.")
		if i < 0 {
			return types, errs
		}
		at = at.advance(text[at.Offset : at.Offset+i])
		// The type ends at the end of its line at the latest.
		end := strings.IndexByte(text[at.Offset:], '\n')
		if end < 0 {
			end = len(text) - at.Offset
		}
		line := text[at.Offset : at.Offset+end]
		toks := scan(line, at.Offset, at.Line, at.Column)
		src := &sliceSource{toks: toks, eof: lexer.EOFToken(lexer.Position{Offset: at.Offset + end, Line: at.Line, Column: at.Column + utf8.RuneCountInString(line)})}
		r := &exprReader{literalParser{lex: src}}
		n, err := r.mlir()
		if err != nil {
			errs = append(errs, syntaxError(err, stmtTokens{toks: toks[:min(len(toks), stageEnd(toks, 0)+1)], end: src.eof}, kindExpr, "end of line"))
			at = at.advance("!cute.")
			continue
		}
		m := n.(*MLIRType)
		if len(r.errs) > 0 {
			errs = append(errs, r.errs...)
		} else {
			types = append(types, m)
		}
		at = m.End
	}
}
