package gmma

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// oracleRecord is one line of testdata/oracle/gmma_desc.jsonl (see its README).
type oracleRecord struct {
	ID          string            `json:"id"`
	API         string            `json:"api"`
	Major       string            `json:"major"`
	Atom        string            `json:"atom"`
	Bits        int               `json:"bits"`
	AtomPI      string            `json:"atom_pi"`
	TileShape   string            `json:"tile_shape"`
	Order       string            `json:"order"`
	SmemPI      string            `json:"smem_pi"`
	BlockShape  string            `json:"block_shape"`
	BlockCoord  string            `json:"block_coord"`
	Base        int64             `json:"base_address"`
	BlockLayout string            `json:"block_layout"`
	BlockOffset int64             `json:"block_offset"`
	Desc        string            `json:"desc"`
	Fields      map[string]uint64 `json:"fields"`
	Error       string            `json:"error"`
	// error-path records
	SwizzleBytes string `json:"swizzle_bytes"`
	Layout       string `json:"layout"`
	Note         string `json:"note"`
}

func readRecords(t *testing.T, name string) []oracleRecord {
	t.Helper()
	f, err := os.Open("../../testdata/oracle/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []oracleRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r oracleRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no records", name)
	}
	return out
}

func (r oracleRecord) arch() Arch {
	if r.API == "umma" {
		return SM100
	}
	return SM90
}

func (r oracleRecord) major() Major {
	if r.Major == "MN" {
		return MajorMN
	}
	return MajorK
}

func kindByName(t *testing.T, s string) Kind {
	for k := Interleave; k <= SW128Base32B; k++ {
		if k.String() == s {
			return k
		}
	}
	t.Fatalf("unknown atom kind %q", s)
	return 0
}

func descOf(arch Arch, fields map[string]uint64) Descriptor {
	return Descriptor{Arch: arch, StartAddress: uint16(fields["start_address"]), LeadingOffset: uint16(fields["leading_byte_offset"]),
		StrideOffset: uint16(fields["stride_byte_offset"]), Version: uint8(fields["version"]), BaseOffset: uint8(fields["base_offset"]),
		LBOMode: uint8(fields["lbo_mode"]), LayoutType: uint8(fields["layout_type"])}
}

// TestOracleDescriptors reproduces every tiled vector: the atom, the tiling,
// its recognition, the instruction block and CuTe's descriptor of it.
func TestOracleDescriptors(t *testing.T) {
	recs := append(readRecords(t, "gmma_desc.jsonl"), readRecords(t, "umma_desc.jsonl")...)
	pass := map[string]int{}
	seen := map[string]Tiling{}
	for _, r := range recs {
		if err := checkRecord(t, r, seen); err != nil {
			t.Errorf("%s (%s %s %s %db %s %s block %s at %s): %v", r.ID, r.API, r.Major, r.Atom, r.Bits, r.TileShape, r.Order, r.BlockShape, r.BlockCoord, err)
			continue
		}
		pass[r.API]++
	}
	t.Logf("descriptor vectors passing: gmma %d, umma %d of %d", pass["gmma"], pass["umma"], len(recs))
}

// checkRecord checks one vector; seen caches the recognition of each
// tile, which several blocks share.
func checkRecord(t *testing.T, r oracleRecord, seen map[string]Tiling) error {
	if r.Error != "" {
		return fmt.Errorf("tiled record with an error: %s", r.Error)
	}
	arch := r.arch()
	atom := Atom{Major: r.major(), Kind: kindByName(t, r.Atom), Bits: r.Bits}
	av, err := atom.Layout()
	if err != nil {
		return err
	}
	if av.String() != r.AtomPI {
		return fmt.Errorf("atom %s is %v, CuTe %s", atom.Name(), av, r.AtomPI)
	}
	shape, err := parsePair(r.TileShape)
	if err != nil {
		return err
	}
	order := ColMajor
	if r.Order == "row" {
		order = RowMajor
	}
	tv, err := TileToShape(atom, shape[0], shape[1], order)
	if err != nil {
		return err
	}
	if tv.String() != r.SmemPI {
		return fmt.Errorf("tile_to_shape is %v, CuTe %s", tv, r.SmemPI)
	}
	smem, err := parseValue(r.SmemPI)
	if err != nil {
		return err
	}
	op := Operand{Smem: smem, Bits: r.Bits, Base: r.Base}
	key := r.API + " " + strconv.Itoa(r.Bits) + " " + r.SmemPI
	tiling, ok := seen[key]
	if !ok {
		if tiling, err = Recognize(arch, op); err != nil {
			return fmt.Errorf("recognize: %v", err)
		}
		seen[key] = tiling
	}
	if tiling.Atom != atom || tiling.Shape != shape {
		return fmt.Errorf("recognized %v", tiling)
	}
	if tiling.Order != order && tiling.Reps[0] != 1 && tiling.Reps[1] != 1 {
		return fmt.Errorf("recognized %v, generated %v", tiling, order)
	}
	bs, err := parsePair(r.BlockShape)
	if err != nil {
		return err
	}
	bc, err := parsePair(r.BlockCoord)
	if err != nil {
		return err
	}
	blk, err := Block(op, bs[0], bs[1], bc[0], bc[1])
	if err != nil {
		return fmt.Errorf("block: %v", err)
	}
	_, off, inner, _ := parts(blk.Smem)
	if inner.String() != r.BlockLayout || off != r.BlockOffset {
		return fmt.Errorf("block is %v at offset %d, CuTe %s at %d", inner, off, r.BlockLayout, r.BlockOffset)
	}
	d, err := MakeDesc(arch, atom.Major, blk)
	if err != nil {
		return fmt.Errorf("descriptor: %v", err)
	}
	want, err := strconv.ParseUint(strings.TrimPrefix(r.Desc, "0x"), 16, 64)
	if err != nil {
		return err
	}
	if d.Encode() != want {
		return fmt.Errorf("descriptor 0x%016x, CuTe %s\nours:\n%v", d.Encode(), r.Desc, d)
	}
	if wd := descOf(arch, r.Fields); d != wd {
		return fmt.Errorf("fields %+v, CuTe %+v", d, wd)
	}
	if Decode(arch, want) != d {
		return fmt.Errorf("Decode(%s) = %+v", r.Desc, Decode(arch, want))
	}
	return checkCanonical(d, atom.Major, blk)
}

// TestOracleErrorPaths reproduces the hand-written blocks: CuTe's descriptor
// where it accepts the layout, and where it rejects it the same check failing.
func TestOracleErrorPaths(t *testing.T) {
	explained := 0
	for _, r := range readRecords(t, "gmma_desc_errors.jsonl") {
		arch := r.arch()
		var sw layout.Swizzle
		if _, err := fmt.Sscanf(r.SwizzleBytes, "Sw<%d,%d,%d>", &sw.B, &sw.M, &sw.S); err != nil {
			t.Fatal(err)
		}
		l, err := parseLayout(r.Layout)
		if err != nil {
			t.Fatal(err)
		}
		var smem layout.Value = layout.Box(l)
		if sw.B != 0 {
			esw, err := ElementSwizzle(sw, r.Bits)
			if err != nil {
				t.Fatalf("%s: %v", r.ID, err)
			}
			smem = layout.Composed{Outer: esw, Offset: layout.Int(0), Inner: l}
		}
		op := Operand{Smem: smem, Bits: r.Bits, Base: r.Base}
		d, err := MakeDesc(arch, r.major(), op)
		if r.Error == "" {
			want, _ := strconv.ParseUint(strings.TrimPrefix(r.Desc, "0x"), 16, 64)
			if r.Note == "LBO past the 14-bit field (CuTe truncates)" {
				// CuTe stores the low 14 bits of a too-large offset; we refuse it.
				var nc *NotCanonical
				if !errors.As(err, &nc) || nc.Cond != CondFieldRange {
					t.Errorf("%s %s: want a field-range error, got %v, %v", r.ID, r.Note, d, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: CuTe accepts %s with %s, we say %v", r.ID, r.Note, r.Layout, r.Desc, err)
				continue
			}
			if d.Encode() != want || d != descOf(arch, r.Fields) {
				t.Errorf("%s %s: descriptor 0x%016x, CuTe %s", r.ID, r.Note, d.Encode(), r.Desc)
			}
			if err := checkCanonical(d, r.major(), op); err != nil {
				t.Errorf("%s %s: %v", r.ID, r.Note, err)
			}
			continue
		}
		var nc *NotCanonical
		if !errors.As(err, &nc) {
			t.Errorf("%s %s: CuTe rejects %s (%s), we give %v, %v", r.ID, r.Note, r.Layout, r.Error, d, err)
			continue
		}
		if !strings.Contains(r.Error, nc.Cond) {
			t.Errorf("%s %s: CuTe says %q, we fail %q: %v", r.ID, r.Note, r.Error, nc.Cond, nc)
		}
		explained++
		want, ok := explanations[r.ID]
		if !ok {
			t.Errorf("%s %s: no expected explanation for %v", r.ID, r.Note, nc)
		}
		for _, w := range want {
			if !strings.Contains(nc.Error(), w) {
				t.Errorf("%s %s: the explanation lacks %q: %v", r.ID, r.Note, w, nc)
			}
		}
	}
	if explained != len(explanations) {
		t.Errorf("%d rejections explained, %d expected", explained, len(explanations))
	}
}

// explanations are what each rejection must say, in the layout's own numbers.
var explanations = map[string][]string{
	"E001": {"mode 0 (M/N)", "144 bytes apart", "64:72 in elements"},
	"E002": {"mode 1 (K)", "64 elements of 16 bits"},
	"E004": {"mode 0 (M/N)", "(2,4):(64,256)", "(512,2048) elements"},
	"E005": {"mode 0 (M/N)", "64 bytes apart (one SW64 row", "128 bytes apart"},
	"E006": {"mode 0 (M/N)", "4 rows"},
	"E007": {"mode 1 (K)", "spans 64 elements", "16 elements of 16 bits"},
	"E008": {"mode 1 (K)", "128 bytes apart", "64 bytes apart", "16:32 in elements"},
	"E009": {"mode 1 (K)", "looks K-major"},
	"E010": {"mode 1 (K)", "looks MN-major"},
	"E011": {"Sw<3,2,3>", "Swizzle<3,3,3>"},
	"E012": {"mode 0 (M/N)", "stride 12 elements"},
	"E013": {"mode 1 (K)", "32 bytes apart", "128 bytes apart"},
	"E014": {"Swizzle<2,5,2>", "SM90"},
	"E015": {"rank 3"},
	"E017": {"mode 1 (K)", "16 bytes apart", "128 bytes apart"},
	"E019": {"mode 0 (M/N)", "32 bytes apart", "64 bytes apart"},
	"E020": {"SW128_32B", "only MN-major"},
	"E021": {"mode 0 (M/N)", "144 bytes apart"},
	"E023": {"mode 0 (M/N)", "128 bytes apart", "looks K-major"},
	"E024": {"Swizzle<3,3,3>", "SM100"},
	"E031": {"mode 1 (K)", "144 bytes apart"},
}

// TestPointerForm: every atom and tile CuTe printed with a smem_ptr stage,
// read through FromPointerForm, is the position-independent layout CuTe printed.
func TestPointerForm(t *testing.T) {
	type rec struct {
		AtomLayout string `json:"atom_layout"`
		AtomPI     string `json:"atom_pi"`
		Smem       string `json:"smem"`
		SmemPI     string `json:"smem_pi"`
		Bits       int    `json:"bits"`
	}
	var lines []byte
	for _, name := range []string{"gmma_desc.jsonl", "umma_desc.jsonl"} {
		data, err := os.ReadFile("../../testdata/oracle/" + name)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, data...)
	}
	sc := bufio.NewScanner(bytes.NewReader(lines))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		var r rec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		for _, p := range [][2]string{{r.AtomLayout, r.AtomPI}, {r.Smem, r.SmemPI}} {
			ptr := strings.Replace(p[0], fmt.Sprintf(" o smem_ptr[%db](unset) o ", r.Bits), " o 0 o ", 1)
			v, err := parseValue(ptr)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FromPointerForm(v, r.Bits)
			if err != nil || got.String() != p[1] {
				t.Fatalf("%s: %v, %v; CuTe %s", p[0], got, err, p[1])
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no records")
	}
	if _, err := FromPointerForm(layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 3}, Inner: layout.Make(layout.Int(8), layout.Int(1))}, 5); err == nil {
		t.Error("5-bit elements accepted")
	}
}
