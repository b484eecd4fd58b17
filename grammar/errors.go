package grammar

import "fmt"

// Limits on input that would otherwise cost unbounded stack or memory. Going
// past either is an error at the offending token, never a crash.
const (
	// MaxDepth is the deepest nesting of brackets a statement may have.
	MaxDepth = 256
	// MaxTokenLength is the longest token (a literal, a name, a string) in bytes.
	MaxTokenLength = 4096
)

// Error is a syntax error: Range is the exact range of the offending token
// (empty at the end of the input), Found what is there, Expected what the
// grammar allows there, Message the whole sentence, e.g.
// "expected ',' or ')' after 4, found ':'". Found and Expected are written
// as in the message: Found "':'" or "end of line", Expected "',' or ')'".
type Error struct {
	Range    Range
	Found    string
	Expected string
	Message  string
}

// Error formats e as "LINE:COL: MESSAGE".
func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Range.Pos.Line, e.Range.Pos.Column, e.Message)
}

// Format writes e as the command line reports it: FILE:LINE:COL: error: MESSAGE.
func (e *Error) Format(filename string) string {
	return fmt.Sprintf("%s:%d:%d: error: %s", filename, e.Range.Pos.Line, e.Range.Pos.Column, e.Message)
}

func errorAt(r Range, found, expected, format string, args ...any) *Error {
	return &Error{Range: r, Found: found, Expected: expected, Message: fmt.Sprintf(format, args...)}
}
