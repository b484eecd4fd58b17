// Command probegen makes and reads shared-memory bank-conflict measurements.
//
//	probegen gen -out DIR [-public bank_truth.json] [-seed S] [-tile N] [-matrix N] [-scatter N]
//	    writes DIR/cases.json (the cases, with the model's predictions),
//	    DIR/cases.bin (the probe's input) and DIR/bankprobe.cu (the probe).
//	probegen merge -cases DIR/cases.json -ncu ncu.csv -out measured.json
//	    adds the counters of ncu's CSV (one launch per case, in order) to the cases.
//
// testdata/gpu/README.md has the exact commands that made testdata/gpu.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/codegen/probe"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: probegen gen|merge [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "merge":
		err = merge(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (want gen or merge)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probegen:", err)
		os.Exit(1)
	}
}

// publicCase is a case of the public measured set: one warp, one load, its lane addresses.
type publicCase struct {
	ID       int     `json:"id"`
	Smem     string  `json:"smem"`
	Access   string  `json:"access"`
	ElemBits int     `json:"elem_bits"`
	VecBytes int     `json:"vec_bytes"`
	Addrs    []int64 `json:"addrs"`
}

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	out := fs.String("out", "", "output folder")
	public := fs.String("public", "", "public bank_truth.json to measure again (optional)")
	seed := fs.Uint64("seed", 1, "random seed")
	nTile := fs.Int("tile", 0, "tile cases")
	nMatrix := fs.Int("matrix", 0, "ldmatrix/stmatrix cases")
	nScatter := fs.Int("scatter", 0, "scatter cases")
	nPattern := fs.Int("pattern", 0, "cases given by lane addresses (probe.Patterns)")
	families := fs.Bool("families", false, "add the lane-structure families (probe.Families)")
	mixed := fs.Bool("mixed", false, "add the mixed lane pairings (probe.Mixed)")
	nMask := fs.Int("mask", 0, "cases with lanes predicated off (probe.Masks)")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("gen: -out is required")
	}
	var recs []*probe.Record
	if *public != "" {
		data, err := os.ReadFile(*public)
		if err != nil {
			return err
		}
		var pcs []publicCase
		if err := json.Unmarshal(data, &pcs); err != nil {
			return err
		}
		for _, pc := range pcs {
			in := bank.Instruction{Op: bank.Load, Width: pc.VecBytes}
			copy(in.Addrs[:], pc.Addrs)
			c, err := bank.Analyze(&in)
			if err != nil {
				return fmt.Errorf("public case %d: %v", pc.ID, err)
			}
			recs = append(recs, &probe.Record{Origin: "public", Smem: pc.Smem, Access: pc.Access, ElemBits: pc.ElemBits,
				Op: "ld", VectorBytes: pc.VecBytes, Warps: 1, PerWarp: 1, Addrs: [][]int64{pc.Addrs}, Predicted: c.Wavefronts})
		}
	}
	for i, o := range []struct {
		name string
		n    int
	}{{"tile", *nTile}, {"matrix", *nMatrix}, {"scatter", *nScatter}} {
		got := probe.Random(o.name, *seed+uint64(i)*1000003, o.n)
		if len(got) < o.n {
			return fmt.Errorf("gen: only %d of %d %s cases", len(got), o.n, o.name)
		}
		recs = append(recs, got...)
	}
	if *nPattern > 0 {
		recs = append(recs, probe.Patterns(*seed, *nPattern)...)
	}
	if *families {
		recs = append(recs, probe.Families(*seed)...)
	}
	if *mixed {
		recs = append(recs, probe.Mixed(*seed)...)
	}
	if *nMask > 0 {
		recs = append(recs, probe.Masks(*seed, *nMask)...)
	}
	cases := make([]probe.Case, len(recs))
	for i, r := range recs {
		r.ID = i
		c, err := r.Case()
		if err != nil {
			return err
		}
		cases[i] = c
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	bin, err := os.Create(filepath.Join(*out, "cases.bin"))
	if err != nil {
		return err
	}
	if err := probe.WriteInput(bin, cases); err != nil {
		return err
	}
	if err := bin.Close(); err != nil {
		return err
	}
	cu, err := os.Create(filepath.Join(*out, "bankprobe.cu"))
	if err != nil {
		return err
	}
	if err := probe.WriteCUDA(cu); err != nil {
		return err
	}
	if err := cu.Close(); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(*out, "cases.json"), recs); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d cases in %s\n", len(recs), *out)
	return nil
}

func merge(args []string) error {
	fs := flag.NewFlagSet("merge", flag.ExitOnError)
	casesPath := fs.String("cases", "", "cases.json from gen")
	ncuPath := fs.String("ncu", "", "ncu --csv output")
	out := fs.String("out", "", "measured JSON to write")
	fs.Parse(args)
	data, err := os.ReadFile(*casesPath)
	if err != nil {
		return err
	}
	var recs []*probe.Record
	if err := json.Unmarshal(data, &recs); err != nil {
		return err
	}
	f, err := os.Open(*ncuPath)
	if err != nil {
		return err
	}
	defer f.Close()
	launches, err := probe.ReadNCU(f)
	if err != nil {
		return err
	}
	if len(launches) != len(recs) {
		return fmt.Errorf("merge: %d launches in the ncu output, %d cases", len(launches), len(recs))
	}
	mismatch := 0
	for i, r := range recs {
		r.Measured = launches[i]
		r.Wavefronts = int(launches[i][probe.WavefrontMetric(r.Op)])
		if r.Wavefronts != r.Predicted {
			mismatch++
		}
		if n := int(launches[i][probe.InstructionMetric(r.Op)]); n != r.Warps*r.PerWarp {
			return fmt.Errorf("merge: case %d ran %d %s instructions, want %d: the probe did not run the case as planned", r.ID, n, r.Op, r.Warps*r.PerWarp)
		}
	}
	fmt.Fprintf(os.Stderr, "%d cases, %d predicted differently from the measurement\n", len(recs), mismatch)
	return writeJSON(*out, recs)
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
