package grammar

import (
	"fmt"
	"sort"
)

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

// ErrorList is a list of errors, as go/scanner's: the readers collect the
// errors of a statement that parsed in one, and a File's errors are one,
// sorted by position.
type ErrorList []*Error

func (l ErrorList) Len() int           { return len(l) }
func (l ErrorList) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool { return l[i].Range.Pos.Offset < l[j].Range.Pos.Offset }

// Sort sorts l by offset, errors at the same offset in the order they came.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error is the first error, and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err is l as an error, nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func errorAt(r Range, found, expected, format string, args ...any) *Error {
	return &Error{Range: r, Found: found, Expected: expected, Message: fmt.Sprintf(format, args...)}
}
