package analysis

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// CorpusCase is one line of the golden corpus format (../shared/golden/README.md):
// an operation by its CuTe name, its arguments in CuTe's order (strings in
// CuTe notation, template parameters as JSON integers), and CuTe's answer.
type CorpusCase struct {
	ID     string  `json:"id"`
	Op     string  `json:"op"`
	Args   []any   `json:"args"`
	Result *string `json:"result"`
	Error  *string `json:"error"`
}

// EvalCorpusCase evaluates c's operation on its arguments, each parsed and
// bound as a sheet would bind it.
func EvalCorpusCase(c CorpusCase) (layout.Value, error) {
	args := make([]layout.Value, len(c.Args))
	for i, a := range c.Args {
		v, err := corpusArg(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		args[i] = v
	}
	return ApplyOp(c.Op, args...)
}

func corpusArg(a any) (layout.Value, error) {
	switch a := a.(type) {
	case float64:
		return layout.Int(int64(a)), nil
	case json.Number:
		n, err := strconv.ParseInt(string(a), 10, 64)
		if err != nil {
			return nil, err
		}
		return layout.Int(n), nil
	case string:
		n, perr := grammar.ParseDescriptor(a)
		if perr != nil {
			return nil, perr
		}
		return Eval(n, nil)
	}
	return nil, fmt.Errorf("unsupported argument %v", a)
}

// AnnotateCorpusLine evaluates one corpus line and returns it with
// "got": RESULT or "got_error": MESSAGE added as its last field, the rest of
// the line byte for byte as it was.
func AnnotateCorpusLine(line []byte) []byte {
	var c CorpusCase
	var field string
	var value string
	if err := json.Unmarshal(line, &c); err != nil {
		field, value = "got_error", "not a corpus line: "+err.Error()
	} else if v, err := EvalCorpusCase(c); err != nil {
		field, value = "got_error", err.Error()
	} else {
		field, value = "got", v.String()
	}
	quoted, _ := json.Marshal(value)
	end := len(line)
	for end > 0 && (line[end-1] == '\n' || line[end-1] == '\r' || line[end-1] == ' ') {
		end--
	}
	if end == 0 || line[end-1] != '}' {
		out, _ := json.Marshal(map[string]string{field: value})
		return out
	}
	out := make([]byte, 0, end+len(field)+len(quoted)+8)
	out = append(out, line[:end-1]...)
	if end > 1 && line[end-2] != '{' {
		out = append(out, ',')
	}
	out = append(out, '"')
	out = append(out, field...)
	out = append(out, '"', ':')
	out = append(out, quoted...)
	out = append(out, '}')
	return out
}
