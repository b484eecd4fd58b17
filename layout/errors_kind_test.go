package layout

import (
	"errors"
	"testing"
)

// An operation given a value of a kind it does not take, or the wrong
// number of values, says so with Kind; a failed precondition does not.
func TestErrorKind(t *testing.T) {
	sw := Swizzle{B: 3, M: 4, S: 3}
	l := Make(Ints(4, 8), Ints(1, 4))
	for _, tc := range []struct {
		op   string
		args []Value
		kind bool
	}{
		{"size", []Value{sw}, true},
		{"coalesce", []Value{sw}, true},
		{"size", []Value{Box(l), Box(l)}, true},
		{"composition", []Value{Box(l)}, true},
		{"complement", []Value{Box(Make(Ints(2, 2), Ints(1, 1))), Int(8)}, false},
	} {
		_, err := Apply(tc.op, tc.args...)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s%v: error %v, want an *Error", tc.op, tc.args, err)
		}
		if e.Kind != tc.kind {
			t.Errorf("%s%v: %v: Kind = %v, want %v", tc.op, tc.args, err, e.Kind, tc.kind)
		}
	}
}
