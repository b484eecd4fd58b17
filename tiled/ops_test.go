package tiled_test

import (
	"errors"
	"strings"
	"testing"

	. "github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// Every way the thread-value operations refuse their arguments: CuTe's
// static_asserts by their text (Condition), misuses as kind errors, each
// with the numbers that disagree in the message.
func TestTVOpErrors(t *testing.T) {
	mma, err := tiled.MakeTiledMMA(sm80Atom, Make(Ints(2, 2, 1), Ints(1, 2, 0)), Tiler{})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := tiled.MakeTiledCopy(ldsmAtom, Make(Ints(32, 4), Ints(4, 1)), Make(Ints(1, 8), Ints(0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	stsmT := tiled.CopyAtom{Name: "SM90_U16x2_STSM_T", ValType: "float", ValBits: 32, ThrID: Make(Int(32), Int(1)),
		Src: Make(Tup(Ints(4, 8), Ints(16, 2)), Tup(Ints(256, 16), Ints(1, 128))),
		Dst: Make(Tup(Ints(4, 8), Ints(16, 2)), Tup(Ints(256, 16), Ints(1, 128))),
		Ref: Make(Tup(Ints(4, 8), Ints(16, 2)), Tup(Ints(256, 16), Ints(1, 128)))}
	L := Make(Ints(128, 64), Ints(64, 1))
	for _, tc := range []struct {
		name string
		op   string
		args []Value
		cond string // CuTe's condition, or "" for a kind error
		msg  string
	}{
		{"no atom", "make_tiled_mma", nil, "", "takes 1 to 3 arguments"},
		{"copy atom as MMA atom", "make_tiled_mma", []Value{ldsmAtom}, "", "must be an MMA atom"},
		{"tuple as atom layout", "make_tiled_mma", []Value{sm80Atom, Ints(2, 2, 1)}, "", "must be a layout"},
		{"rank-4 atom layout", "make_tiled_mma", []Value{sm80Atom, Box(Make(Ints(2, 2, 1, 1), Ints(1, 2, 0, 0)))}, tiled.CondTiledMMARank, "has rank 4"},
		{"4-mode permutation", "make_tiled_mma", []Value{sm80Atom, Box(Make(Ints(1, 1, 1), Ints(0, 0, 0))), Tiler{Modes: make([]TilerMode, 4)}}, tiled.CondTiledMMAPerm, "has 4 modes"},
		{"swizzle as permutation", "make_tiled_mma", []Value{sm80Atom, Box(Make(Ints(1, 1, 1), Ints(0, 0, 0))), Swizzle{B: 3, M: 4, S: 3}}, "", "must be a tile"},
		{"zero in a permutation", "make_tiled_mma", []Value{sm80Atom, Box(Make(Ints(1, 1, 1), Ints(0, 0, 0))), Ints(0, 8, 16)}, "", "not a positive size"},
		{"too few vals", "make_tiled_copy", []Value{ldsmAtom, Box(Make(Ints(32, 4), Ints(4, 1))), Box(Make(Ints(1, 2), Ints(0, 1)))}, tiled.CondTooFewVals, "2 values per thread, not a multiple of the 8"},
		{"too few thrs", "make_tiled_copy", []Value{ldsmAtom, Box(Make(Ints(4, 4), Ints(4, 1))), Box(Make(Ints(1, 8), Ints(0, 1)))}, tiled.CondTooFewThrs, "16 threads, not a multiple of the 32"},
		{"element type too wide", "make_tiled_copy", []Value{stsmT, Box(Make(Ints(32, 4), Ints(4, 1)))}, tiled.CondCopySrcType, "16 threads, but the atom has 32"},
		{"MMA atom as copy atom", "make_tiled_copy", []Value{sm80Atom, Box(Make(Ints(32, 4), Ints(4, 1)))}, "", "must be a copy atom"},
		{"copy of a TiledCopy", "make_tiled_copy_A", []Value{ldsmAtom, cp}, "", "expected a TiledMMA"},
		{"A of a TiledCopy", "get_layoutA_TV", []Value{cp}, "", "expected a TiledMMA"},
		{"S of a TiledMMA", "get_layoutS_TV", []Value{mma}, "", "expected a TiledCopy"},
		{"negative thread", "partition_A", []Value{mma, Int(-1), Box(L)}, "", "the thread index -1 is negative"},
		{"tuple thread", "partition_C", []Value{mma, Ints(1, 2), Box(L)}, "", "the thread index must be an integer"},
		{"rank-1 MMA tensor", "partition_C", []Value{mma, Int(0), Box(Make(Int(1024), Int(1)))}, tiled.CondPartitionTV, "has rank 1"},
		{"rank-1 copy tensor", "partition_S", []Value{cp, Int(0), Box(Make(Int(1024), Int(1)))}, tiled.CondPartitionTV, "has rank 1"},
		{"swizzle as tensor", "partition_D", []Value{cp, Int(0), Swizzle{B: 3, M: 4, S: 3}}, "", "expected a layout, not swizzle"},
		{"tile_size without mode", "tile_size", []Value{mma}, "", "needs the mode"},
		{"tile_size<3> of a TiledMMA", "tile_size", []Value{mma, Int(3)}, CondIndexRange, "tile_size<3>"},
		{"tile_size<2> of a TiledCopy", "tile_size", []Value{cp, Int(2)}, CondIndexRange, "rank 2"},
		{"tile_size of a layout", "tile_size", []Value{Box(L), Int(0)}, "", "expected a TiledMMA or a TiledCopy"},
		{"make_layout_tv of one layout", "make_layout_tv", []Value{Box(L)}, "", "takes 2 arguments"},
		{"make_layout_tv of a swizzle", "make_layout_tv", []Value{Box(L), Swizzle{B: 1, M: 1, S: 1}}, "", "expected a layout, not swizzle"},
	} {
		_, err := Apply(tc.op, tc.args...)
		var e *Error
		switch {
		case err == nil:
			t.Errorf("%s: %s%v succeeded", tc.name, tc.op, tc.args)
		case !errors.As(err, &e):
			t.Errorf("%s: %v is not an *Error", tc.name, err)
		case e.Condition != tc.cond:
			t.Errorf("%s: condition %q, want %q (%v)", tc.name, e.Condition, tc.cond, err)
		case !strings.Contains(err.Error(), tc.msg):
			t.Errorf("%s: %v, want %q in it", tc.name, err, tc.msg)
		}
	}
}

// The values the thread-value operations give on SM80 16x8x16 over 2x2x1
// atoms (thread 5 holds A(1,2): offset 1*64 + 2 = 66), and the CuTe DSL
// documentation's make_layout_tv example.
func TestTVOps(t *testing.T) {
	mma, err := Apply("make_tiled_mma", sm80Atom, Box(Make(Ints(2, 2, 1), Ints(1, 2, 0))))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		op   string
		args []Value
		want string
	}{
		{"size", []Value{mma}, "_128"},
		{"tile_size", []Value{mma, Int(0)}, "_32"},
		{"tile_size", []Value{mma, Int(1)}, "_16"},
		{"get_layoutA_TV", []Value{mma}, "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))"},
		{"partition_A", []Value{mma, Int(5), Box(Make(Ints(128, 64), Ints(64, 1)))}, "((_2,_2,_2),_4,_4):((_1,_512,_8),_2048,_16) + 66"},
		{"make_layout_tv", []Value{Box(Make(Ints(2, 3), Ints(3, 1))), Box(Make(Ints(2, 2), Ints(2, 1)))}, "((_3,_2),(_2,_2)):((_8,_2),(_4,_1))"},
	} {
		v, err := Apply(tc.op, tc.args...)
		if err != nil {
			t.Errorf("%s%v: %v", tc.op, tc.args, err)
			continue
		}
		var got string
		switch v := v.(type) {
		case *Layout:
			got = v.Format(true)
		case IntTuple:
			got = v.Format(true)
		case Partition:
			got = v.Layout.Format(true) + " + " + v.Offset.Format(true)
		}
		if got != tc.want {
			t.Errorf("%s%v = %s, want %s", tc.op, tc.args, got, tc.want)
		}
	}
}
