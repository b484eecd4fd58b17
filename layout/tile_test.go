package layout

import (
	"errors"
	"testing"
)

// The expected partitions below were worked out by hand from CuTe's
// definitions in tensor_impl.hpp (inner_partition, outer_partition,
// local_tile, local_partition), and the examples in its comments.

func checkPartition(t *testing.T, what string, p Partition, err error, layout, offset string) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	if p.Layout.String() != layout || p.Offset.String() != offset {
		t.Errorf("%s = %v, want %s + %s", what, p, layout, offset)
	}
}

func TestLocalTile(t *testing.T) {
	m := mustLayout("(8,12):(1,8)") // an 8x12 column-major matrix
	// zipped_divide(m, (4,3)) = ((4,3),(2,4)):((1,8),(4,24)); tile (1,2)
	// starts at row 4, column 6: offset 4 + 6*8 = 52.
	p, err := LocalTile(m, Ints(4, 3), Ints(1, 2))
	checkPartition(t, "local_tile(m, (4,3), (1,2))", p, err, "(4,3):(1,8)", "52")
	// An integer coordinate is a 1-D index into the grid of tiles (2,4): 5 is (1,2).
	p, err = LocalTile(m, Ints(4, 3), Int(5))
	checkPartition(t, "local_tile(m, (4,3), 5)", p, err, "(4,3):(1,8)", "52")
	p, err = InnerPartition(m, Ints(4, 3), Int(5))
	checkPartition(t, "inner_partition(m, (4,3), 5)", p, err, "(4,3):(1,8)", "52")
	// A "_" in the coordinate keeps that mode of the grid: all tiles of block row 1.
	p, err = LocalTile(m, Ints(4, 3), Tup(Int(1), Underscore()))
	checkPartition(t, "local_tile(m, (4,3), (1,_))", p, err, "(4,3,4):(1,8,24)", "4")
	// A shorter tuple coordinate is padded with "_".
	p, err = LocalTile(m, Ints(4, 3), Ints(1))
	checkPartition(t, "local_tile(m, (4,3), (1))", p, err, "(4,3,4):(1,8,24)", "4")

	// CuTe's projection example: an (M,N,K) tiler and coordinate (bm, bn, _)
	// serve A (M,K) with Step<_1,X,_1>: A's tile is (BLK_M, BLK_K, k).
	a := mustLayout("(8,6):(1,8)")
	p, err = LocalTileProj(a, Ints(4, 3, 2), Tup(Int(1), Int(2), Underscore()), Tup(Int(1), Underscore(), Int(1)))
	checkPartition(t, "local_tile(A, (4,3,2), (1,2,_), (1,X,1))", p, err, "(4,2,3):(1,8,16)", "4")
	// B (N,K) with Step<X,_1,_1>: (BLK_N, BLK_K, k) at block column 2.
	b := mustLayout("(9,6):(1,9)")
	p, err = LocalTileProj(b, Ints(4, 3, 2), Tup(Int(1), Int(2), Underscore()), Tup(Underscore(), Int(1), Int(1)))
	checkPartition(t, "local_tile(B, (4,3,2), (1,2,_), (X,1,1))", p, err, "(3,2,3):(1,9,18)", "6")
	// C (M,N) with Step<_1,_1,X>: the (BLK_M, BLK_N) tile.
	c := mustLayout("(8,9):(1,8)")
	p, err = LocalTileProj(c, Ints(4, 3, 2), Tup(Int(1), Int(2), Underscore()), Tup(Int(1), Int(1), Underscore()))
	checkPartition(t, "local_tile(C, (4,3,2), (1,2,_), (1,1,X))", p, err, "(4,3):(1,8)", "52")
}

func TestOuterPartition(t *testing.T) {
	m := mustLayout("(8,12):(1,8)")
	// Element (1,1) of every (4,3) tile: offset 1 + 8, over the (2,4) grid.
	p, err := OuterPartition(m, Ints(4, 3), Ints(1, 1))
	checkPartition(t, "outer_partition(m, (4,3), (1,1))", p, err, "(2,4):(4,24)", "9")
	p, err = OuterPartition(m, Ints(4, 3), Int(5))
	checkPartition(t, "outer_partition(m, (4,3), 5)", p, err, "(2,4):(4,24)", "9")
}

func TestLocalPartition(t *testing.T) {
	// CuTe's example: a (16,64) tensor over a (2,16) thread layout gives
	// each thread an (8,4) partition. Thread 5 sits at (1,2) of the threads.
	data := mustLayout("(16,64):(1,16)")
	threads := mustLayout("(2,16):(1,2)")
	p, err := LocalPartition(data, threads, 5)
	checkPartition(t, "local_partition(data, (2,16), 5)", p, err, "(8,4):(2,256)", "33")
	// A row-major thread layout numbers threads along mode 1 first: thread 5 is (0,5).
	p, err = LocalPartition(data, mustLayout("(2,16):(16,1)"), 5)
	checkPartition(t, "local_partition(data, (2,16):(16,1), 5)", p, err, "(8,4):(2,256)", "80")
	// An integer-shaped thread layout: a 1-D partition. The tiler is
	// product_each(4) = (4), a 1-tuple, so the rest mode is the 1-tuple
	// ((8)) and slicing (3,_) keeps it as one mode: ((8)):((4)).
	p, err = LocalPartition(mustLayout("32:1"), mustLayout("4:1"), 3)
	checkPartition(t, "local_partition(32:1, 4:1, 3)", p, err, "((8)):((4))", "3")

	// CuTe's projection example: threads (2,16,1):(16,1,0) over A (M,K) with
	// Step<_1,X,_1>: (M/2, K/1). Thread 21 is at (1, 5, 0): row 1 of A.
	a := mustLayout("(8,6):(1,8)")
	thr := mustLayout("(2,16,1):(16,1,0)")
	p, err = LocalPartitionProj(a, thr, 21, Tup(Int(1), Underscore(), Int(1)))
	checkPartition(t, "local_partition(A, thr, 21, (1,X,1))", p, err, "(4,6):(2,8)", "1")
	// B (N,K) with Step<X,_1,_1>: (N/16, K/1), thread 21 at column 5 of the threads.
	bl := mustLayout("(32,6):(1,32)")
	p, err = LocalPartitionProj(bl, thr, 21, Tup(Underscore(), Int(1), Int(1)))
	checkPartition(t, "local_partition(B, thr, 21, (X,1,1))", p, err, "(2,6):(16,32)", "5")
}

func TestPartitionErrors(t *testing.T) {
	m := mustLayout("(8,12):(1,8)")
	cases := []struct {
		name string
		f    func() (Partition, error)
		op   string
	}{
		{"coordinate too long", func() (Partition, error) { return LocalTile(m, Ints(4, 3), Ints(1, 1, 1)) }, "local_tile"},
		{"coordinate too long (outer)", func() (Partition, error) { return OuterPartition(m, Ints(4, 3), Ints(1, 1, 1)) }, "outer_partition"},
		{"tiler too long", func() (Partition, error) { return InnerPartition(m, Ints(4, 3, 2), Int(0)) }, "inner_partition"},
		{"tiler too long (outer)", func() (Partition, error) { return OuterPartition(m, Ints(4, 3, 2), Int(0)) }, "outer_partition"},
		{"bad tiler", func() (Partition, error) { return InnerPartition(m, LayoutLeft, Int(0)) }, "inner_partition"},
		{"bad tiler (outer)", func() (Partition, error) { return OuterPartition(m, LayoutLeft, Int(0)) }, "outer_partition"},
		{"bad tiler (proj)", func() (Partition, error) { return LocalTileProj(m, LayoutLeft, Int(0), Ints(1, 1)) }, "local_tile"},
		{"coordinate rank", func() (Partition, error) {
			return LocalTile(m, Ints(4, 3), Tup(Ints(1, 1), Int(0)))
		}, "local_tile"},
		{"projection rank", func() (Partition, error) {
			return LocalTileProj(m, Ints(4, 3, 2), Ints(1, 1, 0), Ints(1, 1))
		}, "local_tile"},
		{"projection rank (coordinate)", func() (Partition, error) {
			return LocalTileProj(m, Ints(4, 3), Ints(1, 1, 0), Ints(1, 1))
		}, "local_tile"},
		{"projection of a layout tiler", func() (Partition, error) {
			return LocalTileProj(m, Box(mustLayout("4:1")), Ints(1, 1), Ints(1, 1))
		}, "local_tile"},
		{"projected tiler too long", func() (Partition, error) {
			return LocalTileProj(mustLayout("8:1"), Ints(4, 3), Ints(1, 1), Ints(1, 1))
		}, "local_tile"},
		{"projected coordinate too long", func() (Partition, error) {
			return LocalTileProj(m, Ints(4, 3), Tup(Int(1), Ints(1, 1, 1)), Tup(Underscore(), Int(1)))
		}, "local_tile"},
		{"stride 0 thread mode", func() (Partition, error) {
			return LocalPartition(m, mustLayout("(2,4):(0,2)"), 3)
		}, "local_partition"},
		{"unknown thread shape", func() (Partition, error) {
			return LocalPartition(m, Make(Tup(Unknown(), Int(4)), Ints(1, 2)), 3)
		}, "local_partition"},
		{"unknown thread stride", func() (Partition, error) {
			return LocalPartition(m, Make(Ints(2, 4), Tup(Int(1), Unknown())), 3)
		}, "local_partition"},
		{"thread layout not congruent", func() (Partition, error) {
			return LocalPartition(m, Make(Tup(Ints(2, 2), Int(4)), Tup(Ints(1, 2, 3), Int(4))), 3)
		}, "local_partition"},
		{"thread layout too long", func() (Partition, error) {
			return LocalPartition(m, mustLayout("(2,2,2):(1,2,4)"), 3)
		}, "local_partition"},
		{"projection of the thread layout", func() (Partition, error) {
			return LocalPartitionProj(m, mustLayout("(2,4):(1,2)"), 3, Ints(1, 1, 1))
		}, "local_partition"},
		{"projection of the thread strides", func() (Partition, error) {
			return LocalPartitionProj(m, Make(Ints(2, 4), Int(1)), 3, Ints(1, 1))
		}, "local_partition"},
	}
	for _, c := range cases {
		p, err := c.f()
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, %v; want an *Error", c.name, p, err)
			continue
		}
		if e.Op != c.op {
			t.Errorf("%s: error %v names %q, want %q", c.name, e, e.Op, c.op)
		}
	}
}

func TestFlatCoord(t *testing.T) {
	cases := []struct {
		tile  string
		index int64
		want  string
	}{
		{"(2,16):(1,2)", 5, "(1,2)"},
		{"(2,16):(16,1)", 5, "(0,5)"},
		{"((2,2),8):((1,2),4)", 7, "(3,1)"},
		{"((2,2),8):((2,1),4)", 6, "(1,1)"},
		{"((2,2),8):1", 6, "(2,1)"},
		{"(1,4):(0,1)", 3, "(0,3)"},
		{"8:2", 6, "3"},
	}
	for _, c := range cases {
		got, err := FlatCoord(mustLayout(c.tile), c.index)
		if err != nil || got.String() != c.want {
			t.Errorf("(%s).get_flat_coord(%d) = %v, %v; want %s", c.tile, c.index, got, err, c.want)
		}
	}
}

func TestTileToShapeDynamic(t *testing.T) {
	// CuTe checks divisibility only on static sizes: a run-time target is
	// rounded up to whole blocks.
	got, err := TileToShape(mustLayout("(2,3):(1,2)"), Tup(Dyn(4), Dyn(8)), nil)
	if err != nil || got.String() != "((2,2),(3,3)):((1,6),(2,12))" {
		t.Errorf("tile_to_shape((2,3):(1,2), (4,8) dynamic) = %v, %v", got, err)
	}
	if _, err := TileToShape(mustLayout("(2,3):(1,2)"), Ints(4, 8), nil); err == nil {
		t.Errorf("tile_to_shape((2,3):(1,2), (4,8)) static accepted")
	}
}

func TestPartitionOps(t *testing.T) {
	m := mustLayout("(8,12):(1,8)")
	ok := []struct {
		name string
		args []Value
		want string
	}{
		{"local_tile", []Value{Box(m), Ints(4, 3), Ints(1, 2)}, "(4,3):(1,8) + 52"},
		{"local_tile", []Value{Box(mustLayout("(8,6):(1,8)")), Ints(4, 3, 2), Tup(Int(1), Int(2), Underscore()), Tup(Int(1), Underscore(), Int(1))}, "(4,2,3):(1,8,16) + 4"},
		{"inner_partition", []Value{Box(m), Ints(4, 3), Int(5)}, "(4,3):(1,8) + 52"},
		{"outer_partition", []Value{Box(m), Ints(4, 3), Ints(1, 1)}, "(2,4):(4,24) + 9"},
		{"local_partition", []Value{Box(mustLayout("(16,64):(1,16)")), Box(mustLayout("(2,16):(1,2)")), Int(5)}, "(8,4):(2,256) + 33"},
		{"local_partition", []Value{Box(mustLayout("(8,6):(1,8)")), Box(mustLayout("(2,16,1):(16,1,0)")), Int(21), Tup(Int(1), Underscore(), Int(1))}, "(4,6):(2,8) + 1"},
	}
	for _, c := range ok {
		got, err := Apply(c.name, c.args...)
		if err != nil || got.String() != c.want {
			t.Errorf("%s%v = %v, %v; want %s", c.name, c.args, got, err, c.want)
		}
	}
	bad := []struct {
		name string
		args []Value
	}{
		{"local_tile", []Value{Box(m), Ints(4, 3)}},
		{"local_tile", []Value{Ints(8, 12), Ints(4, 3), Ints(1, 2)}},
		{"local_tile", []Value{Box(m), Ints(4, 3), Box(m)}},
		{"local_tile", []Value{Box(m), Ints(4, 3), Ints(1, 2), Box(m)}},
		{"inner_partition", []Value{Box(m), Ints(4, 3), Int(1), Ints(1, 1)}},
		{"local_partition", []Value{Box(m), Box(mustLayout("(2,4):(1,2)"))}},
		{"local_partition", []Value{Ints(8, 12), Box(mustLayout("(2,4):(1,2)")), Int(1)}},
		{"local_partition", []Value{Box(m), Ints(2, 4), Int(1)}},
		{"local_partition", []Value{Box(m), Box(mustLayout("(2,4):(1,2)")), Ints(1, 1)}},
		{"local_partition", []Value{Box(m), Box(mustLayout("(2,4):(1,2)")), Int(1), Box(m)}},
		{"logical_divide", []Value{Box(m)}},
		{"logical_divide", []Value{Ints(8, 12), Int(4)}},
		{"blocked_product", []Value{Box(m), Ints(2, 2)}},
		{"tile_to_shape", []Value{Box(m)}},
		{"tile_to_shape", []Value{Ints(8, 12), Ints(16, 24)}},
		{"tile_to_shape", []Value{Box(m), Box(m)}},
		{"tile_unzip", []Value{Box(m)}},
		{"tile_unzip", []Value{Ints(8, 12), Int(4)}},
		{"zip", []Value{Box(m), Ints(2, 2)}},
	}
	for _, c := range bad {
		got, err := Apply(c.name, c.args...)
		var e *Error
		if !errors.As(err, &e) || e.Op != c.name {
			t.Errorf("%s%v = %v, %v; want an *Error of %s", c.name, c.args, got, err, c.name)
		}
	}
	for _, c := range []struct {
		name string
		args []Value
		want string
	}{
		{"tile_unzip", []Value{Box(mustLayout("((4,2),(3,4)):((1,4),(8,24))")), Ints(4, 3)}, "((4,3),(2,4)):((1,8),(4,24))"},
		{"zip", []Value{Box(mustLayout("(2,3):(1,2)")), Box(mustLayout("(4,5):(6,24)"))}, "((2,4),(3,5)):((1,6),(2,24))"},
		{"tile_to_shape", []Value{Box(mustLayout("(2,3):(3,1)")), Ints(8, 6), LayoutRight}, "((2,4),(3,2)):((3,12),(1,6))"},
	} {
		got, err := Apply(c.name, c.args...)
		if err != nil || got.String() != c.want {
			t.Errorf("%s%v = %v, %v; want %s", c.name, c.args, got, err, c.want)
		}
	}
}

// TestTileToShapeChecksOnlyAStaticTarget: CuTe asserts that the block
// divides the target only when every mode size of the target is static
// (layout.hpp's is_static<target_shape>); beside a run-time mode, a static
// mode that does not divide rounds its repetition count up instead.
func TestTileToShapeChecksOnlyAStaticTarget(t *testing.T) {
	block := Make(Tup(Int(4), Int(4)), Tup(Int(1), Int(4)))
	got, err := TileToShape(block, Tup(Dyn(8), Int(6)), nil)
	if err != nil {
		t.Fatalf("tile_to_shape with a run-time target mode: %v", err)
	}
	grid, err := MakeLayoutTag(Tup(Dyn(2), Int(2)), LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	want, err := BlockedProduct(block, grid)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format(true) != want.Format(true) {
		t.Errorf("tile_to_shape = %v, want blocked_product(B, ceil_div grid) = %v", got.Format(true), want.Format(true))
	}
	var le *Error
	if _, err := TileToShape(block, Tup(Int(8), Int(6)), nil); !errors.As(err, &le) || le.Condition != CondTileDivide {
		t.Errorf("all-static target (8,6): err = %v, want %s", err, CondTileDivide)
	}
}
