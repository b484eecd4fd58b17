package tirx

import (
	"errors"
	"fmt"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// The register tile of the TIRx seed: (8,16) over 2 warps of 32 lanes,
// replicated to warps +4, offset 5 on warpid.
var tensorCoreTile = Layout{
	Shard: []Iter{
		{Extent: 8, Stride: 4, Axis: "laneid"},
		{Extent: 2, Stride: 1, Axis: "warpid"},
		{Extent: 4, Stride: 1, Axis: "laneid"},
		{Extent: 2, Stride: 1, Axis: MemoryAxis},
	},
	Replica: []Iter{{Extent: 2, Stride: 4, Axis: "warpid"}},
	Offset:  []AxisValue{{Axis: "warpid", Value: 5}},
}

func TestTileLayoutString(t *testing.T) {
	want := "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
	if got := tensorCoreTile.String(); got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}

func TestTileLayoutTensorCoreTile(t *testing.T) {
	shape := []int64{8, 16}
	cases := []struct {
		i, j  int64
		flat  int64
		split [4]int64
		lane  int64
		warps [2]int64
		reg   int64
	}{
		{0, 0, 0, [4]int64{0, 0, 0, 0}, 0, [2]int64{5, 9}, 0},
		{0, 1, 1, [4]int64{0, 0, 0, 1}, 0, [2]int64{5, 9}, 1},
		{0, 2, 2, [4]int64{0, 0, 1, 0}, 1, [2]int64{5, 9}, 0},
		{1, 0, 16, [4]int64{1, 0, 0, 0}, 4, [2]int64{5, 9}, 0},
		{0, 8, 8, [4]int64{0, 1, 0, 0}, 0, [2]int64{6, 10}, 0},
		{7, 15, 127, [4]int64{7, 1, 3, 1}, 31, [2]int64{6, 10}, 1},
	}
	for _, c := range cases {
		flat, err := RowMajorIndex(shape, []int64{c.i, c.j})
		if err != nil || flat != c.flat {
			t.Errorf("RowMajorIndex(%d,%d) = %d, %v; want %d", c.i, c.j, flat, err, c.flat)
		}
		if got, err := tensorCoreTile.Split(flat); err != nil || fmt.Sprint(got) != fmt.Sprint(c.split[:]) {
			t.Errorf("Split(%d) = %v, want %v", flat, got, c.split)
		}
		pts, err := tensorCoreTile.Map(shape, []int64{c.i, c.j})
		if err != nil {
			t.Fatalf("Map(%d,%d): %v", c.i, c.j, err)
		}
		if len(pts) != 2 {
			t.Fatalf("Map(%d,%d) = %v, want two points", c.i, c.j, pts)
		}
		for k, p := range pts {
			lane, _ := p.Get("laneid")
			warp, _ := p.Get("warpid")
			reg, _ := p.Get(MemoryAxis)
			if lane != c.lane || warp != c.warps[k] || reg != c.reg {
				t.Errorf("Map(%d,%d)[%d] = %v, want laneid %d warpid %d m %d", c.i, c.j, k, p, c.lane, c.warps[k], c.reg)
			}
		}
	}
}

// The closed form of the seed holds for every element of the tile.
func TestTileLayoutTensorCoreClosedForm(t *testing.T) {
	for i := int64(0); i < 8; i++ {
		for j := int64(0); j < 16; j++ {
			pts, err := tensorCoreTile.Map([]int64{8, 16}, []int64{i, j})
			if err != nil {
				t.Fatal(err)
			}
			for r, p := range pts {
				want := Point{{"laneid", 4*i + (j/2)%4}, {"warpid", j/8 + 5 + 4*int64(r)}, {MemoryAxis, j % 2}}
				if p.String() != want.String() {
					t.Errorf("(%d,%d) replica %d: %v, want %v", i, j, r, p, want)
				}
			}
		}
	}
}

// The Blackwell tensor-memory placement: a singleton per element.
func TestTileLayoutTensorMemory(t *testing.T) {
	tmem := Layout{Shard: []Iter{
		{Extent: 2, Stride: 112, Axis: "TCol"},
		{Extent: 128, Stride: 1, Axis: "TLane"},
		{Extent: 112, Stride: 1, Axis: "TCol"},
	}}
	if got, want := tmem.String(), "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
	shape := []int64{2, 128, 112}
	for _, c := range [][5]int64{{0, 0, 0, 0, 0}, {0, 5, 3, 5, 3}, {1, 0, 0, 0, 112}, {1, 127, 111, 127, 223}} {
		pts, err := tmem.Map(shape, c[:3])
		if err != nil {
			t.Fatal(err)
		}
		want := Point{{"TCol", c[4]}, {"TLane", c[3]}}
		if len(pts) != 1 || pts[0].String() != want.String() {
			t.Errorf("Map(%v) = %v, want [%v]", c[:3], pts, want)
		}
	}
	// Any shape of the same size is admitted; the split re-derives the components.
	if _, err := tmem.Map([]int64{256, 112}, []int64{255, 111}); err != nil {
		t.Errorf("shape (256,112): %v", err)
	}
}

// The scale-factor atom: a replica routes one 32-row group to four warps' lanes.
func TestTileLayoutScaleFactorReplica(t *testing.T) {
	sf := Layout{
		Shard:   []Iter{{Extent: 32, Stride: 1, Axis: "TLane"}, {Extent: 4, Stride: 1, Axis: "TCol"}},
		Replica: []Iter{{Extent: 4, Stride: 32, Axis: "TLane"}},
	}
	pts, err := sf.Map([]int64{32, 4}, []int64{3, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(pts), "{TLane:3, TCol:2} | {TLane:35, TCol:2} | {TLane:67, TCol:2} | {TLane:99, TCol:2}"; got != want {
		t.Errorf("Map = %s, want %s", got, want)
	}
}

// A stride-0 replica names the same point twice: the set keeps it once.
func TestTileLayoutReplicaSet(t *testing.T) {
	l := Layout{Shard: []Iter{{Extent: 4, Stride: 1, Axis: "laneid"}}, Replica: []Iter{{Extent: 3, Stride: 0, Axis: "warpid"}}}
	pts, err := l.MapIndex(2)
	if err != nil || len(pts) != 1 {
		t.Errorf("MapIndex(2) = %v, %v; want one point", pts, err)
	}
}

func TestTileLayoutErrors(t *testing.T) {
	bad := []struct {
		name string
		run  func() error
		cond string
	}{
		{"no shard", func() error { return Layout{}.Validate() }, CondShard},
		{"zero extent", func() error { return Layout{Shard: []Iter{{0, 1, "m"}}}.Validate() }, CondExtent},
		{"no axis", func() error { return Layout{Shard: []Iter{{2, 1, ""}}}.Validate() }, CondAxis},
		{"offset without axis", func() error {
			return Layout{Shard: []Iter{{2, 1, "m"}}, Offset: []AxisValue{{"", 1}}}.Validate()
		}, CondAxis},
		{"two offsets on one axis", func() error {
			return Layout{Shard: []Iter{{2, 1, "m"}}, Offset: []AxisValue{{"m", 1}, {"m", 2}}}.Validate()
		}, CondOffset},
		{"shape not admitted", func() error { _, err := tensorCoreTile.Map([]int64{8, 8}, []int64{0, 0}); return err }, CondAdmit},
		{"non-positive shape", func() error { return tensorCoreTile.Admits([]int64{0, 16}) }, CondAdmit},
		{"coordinate outside", func() error { _, err := tensorCoreTile.Map([]int64{8, 16}, []int64{8, 0}); return err }, CondCoord},
		{"rank mismatch", func() error { _, err := tensorCoreTile.Map([]int64{128}, []int64{0, 0}); return err }, CondCoord},
		{"flat outside", func() error { _, err := tensorCoreTile.MapIndex(128); return err }, CondCoord},
		{"split of an invalid layout", func() error { _, err := Layout{Shard: []Iter{{0, 1, "m"}}}.Split(0); return err }, CondExtent},
		{"split outside", func() error { _, err := tensorCoreTile.Split(-1); return err }, CondCoord},
		{"size overflow", func() error {
			return Layout{Shard: []Iter{{1 << 40, 1, "m"}, {1 << 40, 1, "m"}}}.Validate()
		}, layout.CondOverflow},
		{"too many replicas", func() error {
			return Layout{Shard: []Iter{{2, 1, "m"}}, Replica: []Iter{{1 << 10, 1, "a"}, {1 << 10, 1, "b"}}}.Validate()
		}, CondReplica},
		{"value overflow", func() error {
			_, err := Layout{Shard: []Iter{{4, 1 << 62, "m"}}}.MapIndex(3)
			return err
		}, layout.CondOverflow},
		{"swizzle S < B", func() error { _, err := Swizzle(3, 3, 2); return err }, layout.CondSwizzleShift},
		{"dtype width", func() error { _, err := SharedMemorySwizzle(12, 128); return err }, "element width must be a power of two up to 128 bits"},
		{"swizzle mode", func() error { _, err := SharedMemorySwizzle(16, 48); return err }, "swizzle mode is none, 32B, 64B or 128B"},
		{"bank of negative address", func() error { _, _, err := SharedMemoryBank(-1, 16); return err }, "address and element width must be non-negative"},
		{"bank overflow", func() error { _, _, err := SharedMemoryBank(1<<62, 16); return err }, layout.CondOverflow},
	}
	for _, c := range bad {
		err := c.run()
		var le *layout.Error
		if !errors.As(err, &le) || le.Condition != c.cond {
			t.Errorf("%s: got %v, want condition %q", c.name, err, c.cond)
		}
	}
}

// The seed's 128B / float16 example: Swizzle(3,3,3) over m = 64i + j gives
// addr(i,j) = 64i + 8((j/8) ^ i) + j%8, and column j = 0 reads eight distinct banks.
func TestSharedMemorySwizzleSeed(t *testing.T) {
	sw, err := SharedMemorySwizzle(16, 128)
	if err != nil || sw != (layout.Swizzle{B: 3, M: 3, S: 3}) {
		t.Fatalf("SharedMemorySwizzle(16, 128) = %v, %v; want Sw<3,3,3>", sw, err)
	}
	for i := int64(0); i < 8; i++ {
		for j := int64(0); j < 64; j++ {
			got, _ := sw.Apply(64*i + j)
			if want := 64*i + 8*((j/8)^i) + j%8; got != want {
				t.Errorf("addr(%d,%d) = %d, want %d", i, j, got, want)
			}
		}
	}
	banks := map[int64]bool{}
	for i := int64(0); i < 8; i++ {
		a, _ := sw.Apply(64 * i)
		if a != 72*i {
			t.Errorf("column 0 row %d: addr %d, want %d", i, a, 72*i)
		}
		bank, _, _ := SharedMemoryBank(a, 16)
		if bank != 4*i {
			t.Errorf("column 0 row %d: bank %d, want %d", i, bank, 4*i)
		}
		banks[bank] = true
	}
	if len(banks) != 8 {
		t.Errorf("column 0 touches %d banks, want 8", len(banks))
	}
	// Without the swizzle the column sits in one bank.
	none, _ := SharedMemorySwizzle(16, 0)
	for i := int64(0); i < 8; i++ {
		a, _ := none.Apply(64 * i)
		if bank, _, _ := SharedMemoryBank(a, 16); bank != 0 {
			t.Errorf("unswizzled column 0 row %d in bank %d, want 0", i, bank)
		}
	}
	for _, c := range []struct{ bits, width, m, b int }{{8, 32, 4, 1}, {32, 64, 2, 2}, {64, 128, 1, 3}, {128, 128, 0, 3}} {
		sw, err := SharedMemorySwizzle(c.bits, c.width)
		if err != nil || sw.M != c.m || sw.B != c.b || sw.S != 3 {
			t.Errorf("SharedMemorySwizzle(%d, %d) = %v, %v", c.bits, c.width, sw, err)
		}
	}
}
