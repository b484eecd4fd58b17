package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/picture"
	"github.com/cute-lsp/cute-lsp/tiled"
	"github.com/cute-lsp/cute-lsp/tirx"
)

func init() {
	commands["svg"] = command{
		summary: "draw a layout as an SVG (offsets, banks, TV, TIRx owners): svg [-o FILE] EXPR | FILE.cute NAME",
		run: func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			return runPicture("svg", args, stdout, stderr)
		},
	}
}

// pictureFlags are the options svg and html share.
type pictureFlags struct {
	out      string
	tv       bool
	tile     string
	operand  string
	elemBits int
	phase    int
	shape    string
}

func (p *pictureFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.out, "o", "", "write to FILE instead of stdout")
	fs.BoolVar(&p.tv, "tv", false, "draw a thread-value layout ((thread, value) -> m + M*n, or -> (m,n)) over the --tile, cells T<thread> V<value>; an mma_atom(...) draws its --operand")
	fs.StringVar(&p.tile, "tile", "", "M,N: the tile of a --tv layout")
	fs.StringVar(&p.operand, "operand", "C", "an mma_atom's operand with --tv: A (M x K), B (N x K) or C (M x N)")
	fs.IntVar(&p.elemBits, "elem-bits", 0, "draw a layout's shared-memory bank map for elements of N bits (bank_conflicts(smem, access, bits) draws the access's phase too)")
	fs.IntVar(&p.phase, "phase", -1, "with bank_conflicts(...): which phase of the access to highlight (default: the first costliest)")
	fs.StringVar(&p.shape, "shape", "", "a TIRx layout's logical shape, e.g. 8,16 (default: first shard extent x the rest)")
}

// runPicture is svg and html: evaluate the input, build its grid, write it.
func runPicture(format string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(format, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var p pictureFlags
	p.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: cute-lsp %s [-o FILE] [--tv --tile M,N] [--elem-bits N] [--phase N] [--shape A,B] EXPR\n", format)
		fmt.Fprintf(stderr, "       cute-lsp %s [options] FILE.cute NAME   (NAME, or any expression, with the sheet's bindings)\n", format)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "cute-lsp %s: %v\n", format, err)
		return 1
	}
	v, src, err := pictureInput(fs.Args())
	if err != nil {
		return fail(err)
	}
	g, err := p.grid(v)
	if err != nil {
		return fail(fmt.Errorf("%s: %v", src, err))
	}
	var buf bytes.Buffer
	if format == "svg" {
		err = g.WriteSVG(&buf)
	} else {
		err = g.WriteHTML(&buf)
	}
	if err != nil {
		return fail(err)
	}
	if p.out == "" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return fail(err)
		}
		return 0
	}
	if err := os.WriteFile(p.out, buf.Bytes(), 0o644); err != nil {
		return fail(err)
	}
	return 0
}

// pictureInput evaluates EXPR, or an expression in a sheet's scope when the
// first argument is a .cute file; src is what was evaluated, for errors.
func pictureInput(args []string) (layout.Value, string, error) {
	if strings.HasSuffix(args[0], ".cute") && len(args) == 1 {
		return nil, args[0], fmt.Errorf("%s: name a binding of the sheet (or an expression of its names) after it", args[0])
	}
	if strings.HasSuffix(args[0], ".cute") {
		file, src := args[0], strings.Join(args[1:], " ")
		text, err := os.ReadFile(file)
		if err != nil {
			return nil, src, err
		}
		sheet := analysis.AnalyzeSheet(file, text)
		n, perr := grammar.ParseExpr(src)
		if perr != nil {
			return nil, src, errors.New(perr.Error())
		}
		v, err := analysis.Eval(n, sheet.EnvAt(len(sheet.Results)))
		if err != nil {
			return nil, src, fmt.Errorf("in %s: %s", file, describeEvalError(src, err))
		}
		return v, src, nil
	}
	if len(args) > 1 && fileExists(args[0]) {
		return nil, args[0], fmt.Errorf("%s: a sheet must be a .cute file", args[0])
	}
	src := strings.Join(args, " ")
	v, err := analysis.EvalString(src)
	if err != nil {
		return nil, src, errors.New(describeEvalError(src, err))
	}
	return v, src, nil
}

func fileExists(name string) bool {
	st, err := os.Stat(name)
	return err == nil && !st.IsDir()
}

// grid turns a value into the grid the flags ask for.
func (p *pictureFlags) grid(v layout.Value) (*picture.Grid, error) {
	switch v := v.(type) { // a tiled value's picture is its thread-value layouts, with or without --tv
	case tiled.TiledMMA:
		if p.tile != "" {
			return nil, errors.New("a TiledMMA's tiles are its own (tile_size<0..2>): drop --tile")
		}
		return picture.FromTiledMMA(v)
	case tiled.TiledCopy:
		if p.tile != "" {
			return nil, errors.New("a TiledCopy's tile is its own: drop --tile")
		}
		return picture.FromTiledCopy(v)
	}
	if p.tv {
		return p.tvGrid(v)
	}
	if p.tile != "" {
		return nil, errors.New("--tile goes with --tv")
	}
	switch v := v.(type) {
	case analysis.BankValue:
		return picture.FromAccess(v.Access, v.Report, p.phase)
	case tirx.Layout:
		var shape []int64
		if p.shape != "" {
			var err error
			if shape, err = parseInts("--shape", p.shape, 0); err != nil {
				return nil, err
			}
		}
		return picture.FromTIRx(v, shape)
	case analysis.AtomValue:
		return nil, errors.New("an atom's picture is its thread-value layout: add --tv (and --operand A, B or C for an MMA atom)")
	}
	if a, ok := v.(analysis.Annotated); ok {
		v = a.Plain()
	}
	if p.phase >= 0 {
		return nil, errors.New("--phase goes with a bank_conflicts(smem, access, bits) expression")
	}
	if p.elemBits != 0 {
		return picture.FromBanks(v, p.elemBits)
	}
	return picture.FromLayout(v)
}

// tvGrid draws a thread-value layout over its tile, or an MMA atom's operand.
func (p *pictureFlags) tvGrid(v layout.Value) (*picture.Grid, error) {
	if a, ok := v.(analysis.AtomValue); ok && a.MMA != nil {
		if p.tile != "" {
			return nil, errors.New("an mma_atom's tile is its own shape: drop --tile")
		}
		mnk := a.MMA.ShapeMNK
		M, N, K := mnk.At(0).Value(), mnk.At(1).Value(), mnk.At(2).Value()
		switch strings.ToUpper(p.operand) {
		case "A":
			return picture.FromTV(a.MMA.ALayout, M, K)
		case "B":
			return picture.FromTV(a.MMA.BLayout, N, K)
		case "C":
			return picture.FromTV(a.MMA.CLayout, M, N)
		}
		return nil, fmt.Errorf("--operand %q: want A, B or C", p.operand)
	}
	tv, ok := v.(*layout.Layout)
	if !ok {
		return nil, fmt.Errorf("--tv: %v is not a layout", v)
	}
	if p.tile == "" {
		return nil, errors.New("--tv needs --tile M,N: the tile the layout's values index")
	}
	mn, err := parseInts("--tile", p.tile, 2)
	if err != nil {
		return nil, err
	}
	return picture.FromTV(*tv, mn[0], mn[1])
}

// parseInts reads "8,16" (want entries, or any number when want is 0).
func parseInts(flagName, s string, want int) ([]int64, error) {
	parts := strings.Split(strings.Trim(s, "()"), ",")
	if want > 0 && len(parts) != want {
		return nil, fmt.Errorf("%s %q: want %d positive integers separated by commas", flagName, s, want)
	}
	out := make([]int64, len(parts))
	for i, part := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s %q: %q is not a positive integer", flagName, s, part)
		}
		out[i] = n
	}
	return out, nil
}
