package analysis

import (
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// The adapters of the TiledCopy constructions of tiled/copy_tiler.go.

func applyMakeTiledCopyS(args []layout.Value) (layout.Value, error) {
	return applyMakeTiledCopySide("S", args)
}
func applyMakeTiledCopyD(args []layout.Value) (layout.Value, error) {
	return applyMakeTiledCopySide("D", args)
}
func applyRetileS(args []layout.Value) (layout.Value, error) { return applyRetileSide("S", args) }
func applyRetileD(args []layout.Value) (layout.Value, error) { return applyRetileSide("D", args) }

func applyMakeTiledCopyCAtom(args []layout.Value) (layout.Value, error) {
	const op = "make_tiled_copy_C_atom"
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	return tiled.MakeTiledCopyCAtom(atom, m)
}

func applyMakeCotiledCopy(args []layout.Value) (layout.Value, error) {
	const op = "make_cotiled_copy"
	if err := wantArgs(op, args, 3, 3); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	tv, err := layoutArg(op, args, 1)
	if err != nil {
		return nil, err
	}
	data, err := layoutArg(op, args, 2)
	if err != nil {
		return nil, err
	}
	return tiled.MakeCotiledCopy(atom, tv, data)
}

func applyMakeTiledCopySide(x string, args []layout.Value) (layout.Value, error) {
	op := "make_tiled_copy_" + x
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	return tiled.MakeTiledCopySD(x, atom, c)
}

func applyRetileSide(x string, args []layout.Value) (layout.Value, error) {
	op := "retile_" + x
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	l, err := layoutArg(op, args, 1)
	if err != nil {
		return nil, err
	}
	out, err := c.Retile(l)
	if err != nil {
		return nil, layout.Renamed(op, err)
	}
	return layout.Box(out), nil
}
