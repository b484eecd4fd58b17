package atom

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// oracleRecord is one line of testdata/oracle/atoms.jsonl, as CuTe printed it.
type oracleRecord struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	ValTypes map[string]struct {
		Type string `json:"type"`
		Bits int    `json:"bits"`
	} `json:"val_types"`
	Registers map[string]struct {
		Type  string `json:"type"`
		Count int    `json:"count"`
		Bits  int    `json:"bits"`
	} `json:"registers"`
	ShapeMNK      string   `json:"Shape_MNK"`
	ThrID         string   `json:"ThrID"`
	ALayout       string   `json:"ALayout"`
	BLayout       string   `json:"BLayout"`
	CLayout       string   `json:"CLayout"`
	SrcLayout     string   `json:"SrcLayout"`
	DstLayout     string   `json:"DstLayout"`
	RefLayout     string   `json:"RefLayout"`
	PTX           string   `json:"ptx"`
	PTXDims       []string `json:"ptx_dims"`
	NumBitsPerTMA int64    `json:"num_bits_per_tma"`
}

const oraclePath = "../../testdata/oracle/atoms.jsonl"

func readOracle(t *testing.T) []oracleRecord {
	t.Helper()
	f, err := os.Open(oraclePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []oracleRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r oracleRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCatalogEqualsCuTe checks every catalogued atom against CuTe's own
// print of its traits: each layout printed as CuTe prints it, the value and
// register types and the PTX instruction.
func TestCatalogEqualsCuTe(t *testing.T) {
	recs := readOracle(t)
	if len(recs) != len(MMAs())+len(Copies()) {
		t.Errorf("oracle has %d atoms, catalog %d", len(recs), len(MMAs())+len(Copies()))
	}
	vectors, failed := 0, 0
	check := func(name, what, got, want string) {
		vectors++
		if got != want {
			failed++
			t.Errorf("%s %s: catalog %s, CuTe %s", name, what, got, want)
		}
	}
	lay := func(l layout.Layout) string { return l.Format(true) }
	for _, r := range recs {
		switch r.Kind {
		case "mma":
			a, err := LookupMMA(r.Name)
			if err != nil {
				t.Errorf("%s: %v", r.Name, err)
				continue
			}
			check(r.Name, "Shape_MNK", a.ShapeMNK.Format(true), r.ShapeMNK)
			check(r.Name, "ThrID", lay(a.ThrID), r.ThrID)
			check(r.Name, "ALayout", lay(a.ALayout), r.ALayout)
			check(r.Name, "BLayout", lay(a.BLayout), r.BLayout)
			check(r.Name, "CLayout", lay(a.CLayout), r.CLayout)
			for k, v := range map[string]ValType{"D": a.ValD, "A": a.ValA, "B": a.ValB, "C": a.ValC} {
				check(r.Name, "ValType"+k, v.Name, r.ValTypes[k].Type)
				vectors++
				if v.Bits != r.ValTypes[k].Bits {
					t.Errorf("%s ValType%s: %d bits, CuTe %d", r.Name, k, v.Bits, r.ValTypes[k].Bits)
				}
			}
			for k, v := range map[string]Registers{"D": a.RegD, "A": a.RegA, "B": a.RegB, "C": a.RegC} {
				checkRegs(t, r.Name, k, v, r.Registers[k].Type, r.Registers[k].Count, r.Registers[k].Bits)
				vectors++
			}
			check(r.Name, "ptx", a.PTX, r.PTX)
		case "copy":
			c, err := LookupCopy(r.Name)
			if err != nil {
				t.Errorf("%s: %v", r.Name, err)
				continue
			}
			check(r.Name, "ThrID", lay(c.ThrID), r.ThrID)
			check(r.Name, "SrcLayout", lay(c.SrcLayout), r.SrcLayout)
			check(r.Name, "DstLayout", lay(c.DstLayout), r.DstLayout)
			check(r.Name, "RefLayout", lay(c.RefLayout), r.RefLayout)
			for k, v := range map[string]Registers{"S": c.RegS, "D": c.RegD} {
				if reg, ok := r.Registers[k]; ok {
					checkRegs(t, r.Name, k, v, reg.Type, reg.Count, reg.Bits)
					vectors++
				}
			}
			check(r.Name, "ptx", c.PTX, r.PTX)
			if len(c.PTXByRank) != len(r.PTXDims) {
				t.Errorf("%s: %d PTX ranks, CuTe %d", r.Name, len(c.PTXByRank), len(r.PTXDims))
			}
			vectors++
			if c.NumBitsPerTMA != r.NumBitsPerTMA {
				t.Errorf("%s NumBitsPerTMA %d, CuTe %d", r.Name, c.NumBitsPerTMA, r.NumBitsPerTMA)
			}
		default:
			t.Errorf("%s: unknown kind %q", r.Name, r.Kind)
		}
	}
	t.Logf("%d atoms, %d vectors compared with CuTe, %d differ", len(recs), vectors, failed)
}

func checkRegs(t *testing.T, name, which string, got Registers, typ string, count, bits int) {
	t.Helper()
	want := Registers{typ, count, bits}
	if typ == "void" {
		want = Registers{}
	}
	if got != want {
		t.Errorf("%s %sRegisters: catalog %+v, CuTe %+v", name, which, got, want)
	}
}

// TestBulkCopyAnyBits checks that a TMA atom built for any number of bits
// equals CuTe's print of the traits at that number, for every catalogued
// instance, built from another instance of its family.
func TestBulkCopyAnyBits(t *testing.T) {
	n := 0
	for _, r := range readOracle(t) {
		if r.NumBitsPerTMA == 0 {
			continue
		}
		proto, _ := LookupCopy(r.Name)
		for _, other := range Copies() {
			if other.NumBitsPerTMA == 0 || other.Name == proto.Name || familyOf(other.Name) != familyOf(proto.Name) {
				continue
			}
			c, err := bulkCopy(Key(familyOf(other.Name) + "<NumBitsPerTMA=" + itoa(r.NumBitsPerTMA) + ">"))
			if err != nil || c == nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			for _, p := range [][2]string{{c.SrcLayout.Format(true), r.SrcLayout}, {c.DstLayout.Format(true), r.DstLayout}, {c.RefLayout.Format(true), r.RefLayout}, {c.ThrID.Format(true), r.ThrID}} {
				n++
				if p[0] != p[1] {
					t.Errorf("%s rebuilt: %s, CuTe %s", r.Name, p[0], p[1])
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no TMA instance compared")
	}
}
