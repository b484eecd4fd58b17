package layout

import (
	"bufio"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// goldenDir is the corpus computed by CuTe C++; CI keeps ../shared beside
// the checkout. CUTE_GOLDEN_DIR points the golden tests at another corpus
// in the same format, such as one generated with ../shared/oracle/gen.py
// from another seed.
var goldenDir = cmp.Or(os.Getenv("CUTE_GOLDEN_DIR"), "../../shared/golden")

type goldenCase struct {
	ID      string  `json:"id"`
	Op      string  `json:"op"`
	Args    []any   `json:"args"`
	Result  *string `json:"result"`
	Error   *string `json:"error"`
	Offsets []int64 `json:"offsets"`
}

func loadGolden(t testing.TB) map[string][]goldenCase {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no golden corpus in %s: CuTe's vectors live in ../shared/golden beside the checkout", goldenDir)
	}
	return loadCorpus(t, files...)
}

// loadCorpus reads corpus lines (the golden format) from files, by operation.
func loadCorpus(t testing.TB, files ...string) map[string][]goldenCase {
	byOp := map[string][]goldenCase{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var c goldenCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			byOp[c.Op] = append(byOp[c.Op], c)
		}
		fh.Close()
	}
	return byOp
}

func goldenArgs(c goldenCase) ([]Value, error) {
	args := make([]Value, len(c.Args))
	for i, a := range c.Args {
		switch a := a.(type) {
		case float64:
			args[i] = Int(int64(a))
		case string:
			v, err := readValue(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
	}
	return args, nil
}

// TestGolden reproduces every case CuTe C++ computed: the same printed
// result (so the same shape and stride trees), or an error where CuTe rejects.
func TestGolden(t *testing.T) { checkCorpus(t, loadGolden(t), nil) }

// TestRandomCorpora: random cases from two more seeds of
// shared/oracle/gen.py (1,653 from seed 4242 at scale 0.3, 5,338 from seed
// 777 at scale 1.0), computed by CuTe C++ and kept in testdata/random
// without their offsets.
func TestRandomCorpora(t *testing.T) {
	files, _ := filepath.Glob("testdata/random/*.jsonl")
	if len(files) < 2 {
		t.Fatalf("testdata/random has %d corpora, want 2", len(files))
	}
	checkCorpus(t, loadCorpus(t, files...), nil)
}

// checkCorpus runs every case through the registry: the result must print
// as CuTe's, and CuTe's errors must be errors. asPrinted, when not nil,
// turns a result into the form CuTe prints it in (see asCuTePrints).
func checkCorpus(t *testing.T, byOp map[string][]goldenCase, asPrinted func(op string, args []Value, got Value) (Value, error)) {
	names := make([]string, 0, len(byOp))
	for op := range byOp {
		names = append(names, op)
	}
	sort.Strings(names)
	for _, name := range names {
		cases := byOp[name]
		t.Run(name, func(t *testing.T) {
			if _, ok := LookupOp(name); !ok {
				t.Fatalf("operation %s is not implemented (%d cases)", name, len(cases))
			}
			failed := 0
			for _, c := range cases {
				args, err := goldenArgs(c)
				if err != nil {
					t.Fatalf("%s: reading args: %v", c.ID, err)
				}
				got, err := Apply(c.Op, args...)
				if err == nil && asPrinted != nil {
					got, err = asPrinted(c.Op, args, got)
				}
				call := c.Op + "(" + strings.Join(argStrings(c.Args), ", ") + ")"
				switch {
				case c.Error != nil && err == nil:
					t.Errorf("%s: %s = %v, CuTe rejects it: %s", c.ID, call, got, *c.Error)
				case c.Error != nil:
					continue // CuTe rejects it and so do we
				case err != nil:
					t.Errorf("%s: %s: unexpected error %v, CuTe gives %s", c.ID, call, err, *c.Result)
				case got.String() != *c.Result:
					t.Errorf("%s: %s = %v, CuTe gives %s", c.ID, call, got, *c.Result)
				default:
					continue
				}
				failed++
			}
			if failed > 0 {
				t.Logf("%s: %d of %d cases differ from CuTe", name, failed, len(cases))
			}
		})
	}
}

func argStrings(args []any) []string {
	out := make([]string, len(args))
	for i, a := range args {
		b, _ := json.Marshal(a)
		out[i] = strings.Trim(string(b), `"`)
	}
	return out
}
