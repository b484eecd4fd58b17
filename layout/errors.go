package layout

import "fmt"

// Error is a rejected operation: which operation, and why in the caller's
// numbers. Condition names the CuTe precondition it mirrors (the text of
// CuTe's static_assert where there is one), so tools can group findings.
type Error struct {
	Op        string // the operation, as CuTe names it: "composition", "shape_div", ...
	Condition string // CuTe's name for the failed check, e.g. "Stride Divisibility Condition"
	Detail    string // the explanation in the user's numbers
	// Kind is set when the operation was given a value of a kind it does
	// not take (the size of a swizzle) or the wrong number of them: a
	// misuse of the operation rather than a failed precondition.
	Kind bool
	// Arg is the 1-based argument of the operation the error is about
	// (template parameters counted where they come, right after the first
	// argument); 0 when it concerns the call as a whole.
	Arg int
}

// AtArg marks err, when it is an *Error not yet tied to an argument, as
// about argument i (1-based).
func AtArg(i int, err error) error {
	if e, ok := err.(*Error); ok && e.Arg == 0 {
		e.Arg = i
	}
	return err
}

func (e *Error) Error() string {
	switch {
	case e.Condition == "":
		return e.Op + ": " + e.Detail
	case e.Detail == "":
		return e.Op + ": " + e.Condition
	}
	return e.Op + ": " + e.Detail + " (" + e.Condition + ")"
}

// Errorf is the *Error of op with the given CuTe condition and formatted
// detail. A value among args is printed cut to errorValueBytes: an error
// names its operands, which may hold a million leaves.
func Errorf(op, condition, format string, args ...any) *Error {
	for i, a := range args {
		switch v := a.(type) {
		case Layout: // as callers name their operands
			args[i] = errorValue{&v}
		case IntTuple, *Layout, Composed, NestedComposed, Tiler, TilerMode, Partition, ComposedPartition:
			args[i] = errorValue{v.(Value)}
		}
	}
	return &Error{Op: op, Condition: condition, Detail: fmt.Sprintf(format, args...)}
}

// errorValueBytes is how much of a value an error message shows.
const errorValueBytes = 512

// errorValue is a value in an error message, printed within errorValueBytes.
type errorValue struct{ v Value }

func (e errorValue) String() string { return FormatLimited(e.v, false, errorValueBytes).String() }

// KindErrorf is the *Error of an operand of the wrong kind or count (Error.Kind).
func KindErrorf(op, format string, args ...any) *Error {
	e := Errorf(op, "", format, args...)
	e.Kind = true
	return e
}

// Conditions shared by several operations.
const (
	CondOverflow  = "int64 overflow"
	CondCongruent = "shape and stride are not congruent"
	CondUnknown   = "needs a value known before run time"
	// CondTooLarge marks an answer that would need enumerating more points than allowed.
	CondTooLarge = "too many points to enumerate"
)
