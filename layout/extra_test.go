package layout

import (
	"path/filepath"
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
	checkCorpus(t, loadCorpus(t, files...))
}
