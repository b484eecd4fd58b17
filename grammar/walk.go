package grammar

// Inspect walks the tree under n in depth-first order, calling f on each
// node; when f returns false the node's children are skipped (go/ast.Inspect).
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNil(n) || !f(n) {
		return
	}
	each := func(nodes []Node) {
		for _, c := range nodes {
			Inspect(c, f)
		}
	}
	switch n := n.(type) {
	case *Basis:
		Inspect(n.Count, f)
		if n.Den != nil {
			Inspect(n.Den, f)
		}
		for _, m := range n.Modes {
			Inspect(m, f)
		}
	case *Tuple:
		each(n.Elems)
	case *Layout:
		Inspect(n.Shape, f)
		Inspect(n.Stride, f)
	case *AngleList:
		each(n.Modes)
	case *Swizzle:
		Inspect(n.B, f)
		Inspect(n.M, f)
		Inspect(n.S, f)
	case *Composed:
		each(n.Stages)
	case *Tiler:
		each(n.Modes)
	case *TirxLayout:
		if n.Shard != nil {
			Inspect(n.Shard, f)
		}
		for _, r := range n.Replicas {
			Inspect(r, f)
		}
		each(n.Offsets)
	case *TirxPart:
		if n.Layout != nil {
			Inspect(n.Layout, f)
		}
	case *MLIRType:
		Inspect(n.Inner, f)
	case *Call:
		Inspect(n.Fun, f)
		each(n.Template)
		each(n.Args)
	case *Binding:
		Inspect(n.Name, f)
		Inspect(n.Value, f)
	case *Assert:
		Inspect(n.Left, f)
		Inspect(n.Right, f)
	case *ExprStmt:
		Inspect(n.X, f)
	}
}
