package layout

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// testdata/composed_slice.jsonl: slice_and_offset(coord, Sw o off o L) as
// CuTe C++ computes it (generated with the oracle of ../shared/oracle, all
// integers static): the sub-layout, the pointer offset, or CuTe's rejection.
func TestSliceAndOffsetComposedOracle(t *testing.T) {
	fh, err := os.Open("testdata/composed_slice.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	total, failed := 0, 0
	for sc.Scan() {
		var c struct {
			ID     string   `json:"id"`
			Args   []string `json:"args"`
			Result *string  `json:"result"`
			Offset int64    `json:"offset"`
			Error  *string  `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		total++
		coord := mustTuple(c.Args[0])
		v, err := readValue(c.Args[1])
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		got, off, err := SliceAndOffsetComposed(coord, v.(Composed))
		switch {
		case c.Error != nil && err == nil:
			t.Errorf("%s: slice_and_offset(%s, %s) = %v, %d; CuTe rejects it: %s", c.ID, c.Args[0], c.Args[1], got, off, *c.Error)
		case c.Error != nil:
			continue
		case err != nil:
			t.Errorf("%s: slice_and_offset(%s, %s): %v; CuTe gives %s, %d", c.ID, c.Args[0], c.Args[1], err, *c.Result, c.Offset)
		case got.String() != *c.Result || off != c.Offset:
			t.Errorf("%s: slice_and_offset(%s, %s) = %v, %d; CuTe gives %s, %d", c.ID, c.Args[0], c.Args[1], got, off, *c.Result, c.Offset)
		default:
			continue
		}
		failed++
	}
	if failed > 0 {
		t.Logf("%d of %d cases differ from CuTe", failed, total)
	}
}

// testdata/composed_ops.jsonl: further swizzled-layout operations computed by
// CuTe C++ through the same oracle (logical_product with a swizzled tiler,
// max_common_*, casts with offsets, inverses, products and queries), in the
// golden corpus's format.
func TestComposedOpsOracle(t *testing.T) { checkOracleFile(t, "testdata/composed_ops.jsonl") }

// testdata/composed_partition.jsonl: local_tile and local_partition of
// swizzled tensors as CuTe C++ makes them (the partition's layout, " + ", the
// pointer offset), with static coordinates and thread indices.
func TestPartitionComposedOracle(t *testing.T) {
	checkOracleFile(t, "testdata/composed_partition.jsonl")
}

// checkOracleFile applies each case of a file in the golden corpus's format
// by name and compares it with CuTe C++'s print or rejection.
func checkOracleFile(t *testing.T, path string) {
	t.Helper()
	cases := loadCorpusFiles(t, []string{path})
	failed := 0
	for _, c := range cases {
		args, err := goldenArgs(c)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		got, err := Apply(c.Op, args...)
		switch {
		case c.Error != nil && err == nil:
			t.Errorf("%s: %s%v = %v, CuTe rejects it: %s", c.ID, c.Op, c.Args, got, *c.Error)
		case c.Error != nil:
			continue
		case err != nil:
			t.Errorf("%s: %s%v: %v, CuTe gives %s", c.ID, c.Op, c.Args, err, *c.Result)
		case got.String() != *c.Result:
			t.Errorf("%s: %s%v = %v, CuTe gives %s", c.ID, c.Op, c.Args, got, *c.Result)
		default:
			continue
		}
		failed++
	}
	if failed > 0 {
		t.Logf("%d of %d cases differ from CuTe", failed, len(cases))
	}
}
