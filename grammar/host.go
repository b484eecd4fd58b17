package grammar

import (
	"strings"
	"unicode/utf8"
)

// FindMLIRTypes finds every CuTe DSL descriptor type (!cute.layout<"...">,
// !cute.tile<...>, ...) and attribute (#cute.layout<"...">) in a host file
// (MLIR, or anything that quotes it) and parses each on its own: a malformed
// one is reported (and left out) and the others are returned, in source
// order. An attribute comes back as the MLIRType of its payload, its range
// starting at the '#'. Types of other kinds with an unquoted parameter
// (!cute.ptr<f16, smem>, ...) are not descriptors and are passed over; one
// with a quoted payload is read (an unknown kind is reported). Positions are
// those of src.
func FindMLIRTypes(src []byte) ([]*MLIRType, []*Error) {
	text := string(src)
	var (
		types []*MLIRType
		errs  []*Error
		at    = Position{Offset: 0, Line: 1, Column: 1}
	)
	for {
		i := nextMLIRType(text, int(at.Offset))
		if i < 0 {
			return types, errs
		}
		at = at.advance(text[at.Offset:i])
		// The type ends at the end of its line at the latest.
		end := strings.IndexByte(text[at.Offset:], '\n')
		if end < 0 {
			end = len(text) - int(at.Offset)
		}
		line := text[at.Offset : int(at.Offset)+end]
		var toks []token
		if line[0] == '#' {
			// An attribute: '#' would start a comment, so it is read as
			// the '!' of a type at the same place.
			bang := token{Type: tokPunct, Value: "!", Pos: Position{Offset: at.Offset, Line: at.Line, Column: at.Column}}
			toks = scanInto([]token{bang}, line[1:], int(at.Offset)+1, int(at.Line), int(at.Column)+1)
		} else {
			toks = scan(line, int(at.Offset), int(at.Line), int(at.Column))
		}
		src := &sliceSource{toks: toks, eof: eofToken(Position{Offset: at.Offset + int32(end), Line: at.Line, Column: at.Column + int32(utf8.RuneCountInString(line))})}
		r := &exprReader{literalParser{lex: src}}
		n, err := r.mlir()
		if err != nil {
			errs = append(errs, syntaxError(err, stmtTokens{toks: toks[:min(len(toks), stageEnd(toks, 0)+1)], end: src.eof}, kindExpr, "end of line"))
			at = at.advance(line[:len("!cute.")])
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

// nextMLIRType is the offset of the next "!cute.KIND<" or "#cute.KIND<" at
// or after from with KIND a descriptor kind (see mlirKinds) or followed by
// a quoted payload, or -1.
func nextMLIRType(text string, from int) int {
	for i := from; ; {
		j := strings.Index(text[i:], "cute.")
		if j < 0 {
			return -1
		}
		j += i
		i = j + len("cute.")
		if j == 0 || text[j-1] != '!' && text[j-1] != '#' {
			continue
		}
		k := i
		for k < len(text) && isWordByte(text[k]) {
			k++
		}
		if k == len(text) || text[k] != '<' {
			continue
		}
		if k+1 < len(text) && text[k+1] == '"' {
			return j - 1 // a quoted payload: a descriptor, or a misspelt kind to report
		}
		for _, kind := range mlirKinds {
			if kind == text[i:k] {
				return j - 1
			}
		}
	}
}
