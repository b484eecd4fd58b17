// Package layout is CuTe's layout algebra: integer tuples, layouts, swizzles,
// composed layouts and tilers, and the operations CuTe defines on them, with
// the same shape and stride trees CuTe C++ builds. It does no I/O and no
// parsing; every precondition CuTe checks is an *Error value, never a panic.
package layout

import "strconv"

// leafKind says what an IntTuple leaf holds.
type leafKind uint8

const (
	kindInt        leafKind = iota // a known integer
	kindUnknown                    // a run-time value we do not know ("?" in the DSL's print)
	kindTuple                      // a tuple of IntTuples (possibly empty)
	kindUnderscore                 // cute::_ in a coordinate: "every value of this mode"
)

// IntTuple is CuTe's IntTuple: an integer leaf or a tuple of IntTuples.
//
// Strides may also hold scaled bases: Coef times the basis vector E<Modes...>.
// CuTe prints E<0,1> scaled by 3 as "3@1@0" (innermost mode first); the
// path is held outermost first, so that example has Modes [0 1].
//
// Static marks CuTe's compile-time integers (printed "_8"); it changes no
// arithmetic, only printing and the simplifications CuTe makes for static
// values (the golden corpus is all static).
//
// A tuple's elements and a basis leaf's path never occur together, so one
// slice holds either (the path as integer leaves): a node is 40 bytes, and
// result trees, the operations' only allocations, stay small.
type IntTuple struct {
	val int64
	sub []IntTuple // kindTuple: the elements; a basis leaf: its path, as integer leaves
	leafInfo
}

// leafInfo is what kind of node an IntTuple is, and its static mark.
type leafInfo struct {
	kind   leafKind
	static bool
}

// elems is a tuple's elements (shared); nil for a leaf.
func (t IntTuple) elems() []IntTuple {
	if t.kind != kindTuple {
		return nil
	}
	return t.sub
}

// elemsOf is the elements of the tuple at t; nil for a leaf.
func elemsOf(t *IntTuple) []IntTuple {
	if t.kind != kindTuple {
		return nil
	}
	return t.sub
}

// path is a basis leaf's path as integer leaves (shared); nil for anything else.
func (t IntTuple) path() []IntTuple {
	if t.kind == kindTuple {
		return nil
	}
	return t.sub
}

// withPath is the leaf t scaling the basis path p (shared, not copied; an
// empty path makes a plain integer).
func (t IntTuple) withPath(p []IntTuple) IntTuple {
	t.sub = nil
	if len(p) > 0 {
		t.sub = p
	}
	return t
}

// tupleOf is the tuple whose elements are elems (not copied).
func tupleOf(elems []IntTuple) IntTuple {
	return IntTuple{sub: elems, leafInfo: leafInfo{kind: kindTuple}}
}

// Int is a static integer leaf. Almost everything a user writes is static in
// CuTe's sense (the corpus and the DSL's printed constants), so that is the
// default; Dyn makes a run-time one.
func Int(v int64) IntTuple { return IntTuple{val: v, leafInfo: leafInfo{kindInt, true}} }

// Dyn is a run-time (non-static) integer leaf.
func Dyn(v int64) IntTuple { return IntTuple{val: v, leafInfo: leafInfo{kind: kindInt}} }

// Unknown is a run-time leaf whose value we do not know.
func Unknown() IntTuple { return IntTuple{leafInfo: leafInfo{kind: kindUnknown}} }

// Basis is coef times the basis vector E<modes...> (modes outermost first).
func Basis(coef int64, modes ...int) IntTuple {
	p := make([]IntTuple, len(modes))
	for i, m := range modes {
		p[i] = Int(int64(m))
	}
	return Int(coef).withPath(p)
}

// Underscore is CuTe's "_" as a coordinate leaf: slice keeps the modes it
// marks, dice drops them, and crd2idx reads it as 0 (CuTe's Underscore is an
// Int<0>). It only ever appears in coordinates, never in shapes or strides.
func Underscore() IntTuple { return IntTuple{leafInfo: leafInfo{kindUnderscore, true}} }

// IsUnderscore reports whether t is the "_" coordinate leaf.
func (t IntTuple) IsUnderscore() bool { return t.kind == kindUnderscore }

// Tup is the tuple of its arguments; Tup() is the empty tuple.
func Tup(elems ...IntTuple) IntTuple {
	return tupleOf(elems)
}

// Ints is the flat tuple of static integers vs.
func Ints(vs ...int64) IntTuple {
	elems := make([]IntTuple, len(vs))
	for i, v := range vs {
		elems[i] = Int(v)
	}
	return Tup(elems...)
}

// IsTuple reports whether t is a tuple (as opposed to a leaf).
func (t IntTuple) IsTuple() bool { return t.kind == kindTuple }

// IsLeaf reports whether t is a leaf: an integer, an unknown or a scaled basis.
func (t IntTuple) IsLeaf() bool { return t.kind != kindTuple }

// IsUnknown reports whether t is an unknown leaf.
func (t IntTuple) IsUnknown() bool { return t.kind == kindUnknown }

// IsStatic reports whether t is a leaf that CuTe would hold as a compile-time constant.
func (t IntTuple) IsStatic() bool { return t.kind == kindInt && t.static }

// IsBasis reports whether t is a scaled basis leaf (n@d).
func (t IntTuple) IsBasis() bool { return t.kind == kindInt && len(t.sub) > 0 }

// Value is the integer of a leaf (the coefficient of a scaled basis); 0 for tuples and unknowns.
func (t IntTuple) Value() int64 { return t.val }

// Len is the number of elements of a tuple; 1 for a leaf.
func (t IntTuple) Len() int {
	if t.kind == kindTuple {
		return len(t.elems())
	}
	return 1
}

// At is element i of a tuple; a leaf's element 0 is itself.
func (t IntTuple) At(i int) IntTuple {
	if t.kind == kindTuple {
		return t.elems()[i]
	}
	return t
}

// Elems is the elements of a tuple (shared, do not modify); a leaf yields itself alone.
func (t IntTuple) Elems() []IntTuple {
	if t.kind == kindTuple {
		return t.elems()
	}
	return []IntTuple{t}
}

// WithStatic is t with every integer leaf marked static (or run-time when static is false).
func (t IntTuple) WithStatic(static bool) IntTuple {
	switch t.kind {
	case kindTuple:
		out := make([]IntTuple, len(t.elems()))
		for i, e := range t.elems() {
			out[i] = e.WithStatic(static)
		}
		return Tup(out...)
	case kindInt:
		t.static = static
	}
	return t
}

// Equal reports whether a and b are the same tree with the same leaves
// (static marks are ignored: they are a printing matter).
func (a IntTuple) Equal(b IntTuple) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindTuple:
		if len(a.elems()) != len(b.elems()) {
			return false
		}
		for i := range a.elems() {
			if !a.elems()[i].Equal(b.elems()[i]) {
				return false
			}
		}
		return true
	case kindInt:
		return a.val == b.val && samePath(a.sub, b.sub)
	}
	return true
}

// sameAs reports whether t and u are the same node: equal leaves, or
// tuples over the same elements in memory.
func (t *IntTuple) sameAs(u *IntTuple) bool {
	return t.val == u.val && t.leafInfo == u.leafInfo && len(t.sub) == len(u.sub) && (len(t.sub) == 0 || &t.sub[0] == &u.sub[0])
}

// String prints t in CuTe's notation without static marks: 8, (2,(2,2)), 3@1@0, ?.
func (t IntTuple) String() string { return t.Format(false) }

// Format prints t in CuTe's notation; with static, compile-time integers get
// CuTe's "_" mark (_8, _-1), as CuTe's print() shows them.
func (t IntTuple) Format(static bool) string {
	w := unlimitedText()
	t.write(&w, static)
	return w.String()
}

// write prints t into w, leaf by leaf, until w's budget is spent: a tree of
// a million leaves costs no more than the prefix that fits.
func (t IntTuple) write(w *textWriter, static bool) {
	if w.cut {
		return
	}
	switch t.kind {
	case kindTuple:
		w.punct('(')
		for i, e := range t.elems() {
			if i > 0 {
				w.punct(',')
			}
			e.write(w, static)
			if w.cut {
				return
			}
		}
		w.punct(')')
		return
	case kindUnknown:
		w.leaf("?")
	case kindUnderscore:
		w.leaf("_")
	default:
		var buf [64]byte
		leaf := buf[:0]
		if static && t.static {
			leaf = append(leaf, '_')
		}
		leaf = strconv.AppendInt(leaf, t.val, 10)
		for i := len(t.sub) - 1; i >= 0; i-- {
			leaf = append(leaf, '@')
			leaf = strconv.AppendInt(leaf, t.sub[i].val, 10)
		}
		w.leafBytes(leaf)
	}
}

// samePath reports whether two basis paths are the same.
func samePath(a, b []IntTuple) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].val != b[i].val {
			return false
		}
	}
	return true
}
