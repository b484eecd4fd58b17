package grammar

// Equal reports whether a and b are the same AST up to positions and the
// choices a printer makes: swizzle spelling, "{}" after names and swizzles,
// the text of an integer ("08" and "8"), the quotes of an MLIR payload. Static
// marks count ("_8" and "8" differ) except inside MLIR payloads, which have none.
func Equal(a, b Node) bool { return equal(a, b, false) }

// EqualIgnoringStatic is Equal without the static marks, the equality a
// round trip through the pycute and MLIR styles keeps.
func EqualIgnoringStatic(a, b Node) bool { return equal(a, b, true) }

func equal(a, b Node, noStatic bool) bool {
	if a == nil || b == nil {
		return isNil(a) && isNil(b)
	}
	switch a := a.(type) {
	case *Int:
		b, ok := b.(*Int)
		return ok && a.Value == b.Value && (noStatic || a.Static == b.Static)
	case *Unknown:
		b, ok := b.(*Unknown)
		return ok && a.Braced == b.Braced && a.Attrs == b.Attrs
	case *Underscore:
		_, ok := b.(*Underscore)
		return ok
	case *Name:
		b, ok := b.(*Name)
		return ok && a.Name == b.Name
	case *String:
		b, ok := b.(*String)
		return ok && a.Value == b.Value
	case *Basis:
		b, ok := b.(*Basis)
		if !ok || !equal(a.Count, b.Count, noStatic) || (a.Den == nil) != (b.Den == nil) || len(a.Modes) != len(b.Modes) {
			return false
		}
		if a.Den != nil && !equal(a.Den, b.Den, noStatic) {
			return false
		}
		for i := range a.Modes {
			if a.Modes[i].Index != b.Modes[i].Index || a.Modes[i].Axis != b.Modes[i].Axis {
				return false
			}
		}
		return true
	case *Tuple:
		b, ok := b.(*Tuple)
		return ok && equalList(a.Elems, b.Elems, noStatic)
	case *Layout:
		b, ok := b.(*Layout)
		return ok && equal(a.Shape, b.Shape, noStatic) && equal(a.Stride, b.Stride, noStatic)
	case *AngleList:
		b, ok := b.(*AngleList)
		return ok && equalList(a.Modes, b.Modes, noStatic)
	case *Swizzle:
		b, ok := b.(*Swizzle)
		return ok && equal(a.B, b.B, noStatic) && equal(a.M, b.M, noStatic) && equal(a.S, b.S, noStatic)
	case *Pointer:
		b, ok := b.(*Pointer)
		return ok && a.Kind == b.Kind && a.Bits == b.Bits && a.Addr == b.Addr
	case *Composed:
		b, ok := b.(*Composed)
		return ok && equalList(a.Stages, b.Stages, noStatic)
	case *Tiler:
		b, ok := b.(*Tiler)
		return ok && equalList(a.Modes, b.Modes, noStatic)
	case *TirxLayout:
		b, ok := b.(*TirxLayout)
		if !ok || (a.Shard == nil) != (b.Shard == nil) || len(a.Replicas) != len(b.Replicas) {
			return false
		}
		if a.Shard != nil && !equal(a.Shard, b.Shard, noStatic) {
			return false
		}
		for i := range a.Replicas {
			if !equal(a.Replicas[i], b.Replicas[i], noStatic) {
				return false
			}
		}
		return equalList(a.Offsets, b.Offsets, noStatic)
	case *TirxPart:
		b, ok := b.(*TirxPart)
		return ok && a.Kind == b.Kind && equal(a.Layout, b.Layout, noStatic)
	case *MLIRType:
		b, ok := b.(*MLIRType)
		// An MLIR payload has no static marks: the DSL prints none.
		return ok && a.Kind == b.Kind && equal(a.Inner, b.Inner, true)
	case *Call:
		b, ok := b.(*Call)
		return ok && a.Fun.Name == b.Fun.Name && equalList(a.Template, b.Template, noStatic) && equalList(a.Args, b.Args, noStatic)
	case *Binding:
		b, ok := b.(*Binding)
		return ok && a.Name.Name == b.Name.Name && equal(a.Value, b.Value, noStatic)
	case *Assert:
		b, ok := b.(*Assert)
		return ok && a.Op == b.Op && equal(a.Left, b.Left, noStatic) && equal(a.Right, b.Right, noStatic)
	case *ExprStmt:
		b, ok := b.(*ExprStmt)
		return ok && equal(a.X, b.X, noStatic)
	case *BadStmt:
		b, ok := b.(*BadStmt)
		return ok && a.Text == b.Text
	case *Comment:
		b, ok := b.(*Comment)
		return ok && a.Text == b.Text
	}
	return false
}

// isNil reports whether n is nil or a typed nil pointer.
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	switch n := n.(type) {
	case *Int:
		return n == nil
	case *TirxPart:
		return n == nil
	case *Layout:
		return n == nil
	}
	return false
}

func equalList(a, b []Node, noStatic bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equal(a[i], b[i], noStatic) {
			return false
		}
	}
	return true
}
