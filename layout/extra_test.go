package layout

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExtraCorpora: vectors computed by CuTe C++ (through
// ../shared/oracle/gen.py, all integers static) for the sheet operations
// the golden corpus lacks: slicing, partitions, zip, tile_unzip, get, the
// IntTuple operations and more. testdata/extra/README.md says how they were
// made and how a result CuTe prints maps onto the sheet's.
func TestExtraCorpora(t *testing.T) {
	files, _ := filepath.Glob("testdata/extra/*.jsonl")
	if len(files) == 0 {
		t.Fatal("testdata/extra holds no corpus")
	}
	checkCorpus(t, loadCorpus(t, files...), asCuTePrints)
}

// asCuTePrints maps a sheet result onto what the oracle printed where the two
// differ in form only. A partition of a layout with basis strides was
// computed on CuTe's identity tensor, whose iterator holds an arithmetic
// tuple shaped like the tensor (zeros, then the partition's offset added):
// the sheet's offset 4@0 of the shape (8) is printed (4) there.
func asCuTePrints(op string, args []Value, got Value) (Value, error) {
	p, ok := got.(Partition)
	if !ok || !strings.HasSuffix(op, "_partition") && op != "local_tile" {
		return got, nil
	}
	l, ok := args[0].(*Layout)
	if !ok || !hasBasis(&l.Stride) {
		return got, nil
	}
	off, err := addOp("add", zerosLike(l.Shape), p.Offset)
	if err != nil {
		return nil, err
	}
	return Partition{Layout: p.Layout, Offset: off}, nil
}

// zerosLike is CuTe's repeat_like(s, _0) as an arithmetic tuple: a leaf
// shape still gives a 1-tuple, as make_identity_tensor's iterator starts.
func zerosLike(s IntTuple) IntTuple {
	if !s.IsTuple() {
		return Tup(Int(0))
	}
	out := make([]IntTuple, len(s.Elems()))
	for i, e := range s.Elems() {
		if e.IsTuple() {
			out[i] = zerosLike(e)
		} else {
			out[i] = Int(0)
		}
	}
	return Tup(out...)
}
