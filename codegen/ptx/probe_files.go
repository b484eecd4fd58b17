package ptx

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteProbes writes every probe into dir for codegen/ptx/device/probe.sh:
// NNNN.ptx, NNNN.in (the runs' inputs back to back) and probes.tsv, one
// line per probe: file, entry, threads, runs, input bytes per run, output
// bytes, and the probe's key (atom, operand, majors).
func WriteProbes(dir string) error {
	probes, err := Probes()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var manifest strings.Builder
	for i, p := range probes {
		file := fmt.Sprintf("%04d", i)
		if err := os.WriteFile(filepath.Join(dir, file+".ptx"), []byte(p.Text), 0o644); err != nil {
			return err
		}
		var in []byte
		for _, r := range p.Inputs {
			if len(r) != len(p.Inputs[0]) {
				return fmt.Errorf("%s: runs of different input sizes", p.Atom)
			}
			in = append(in, r...)
		}
		if err := os.WriteFile(filepath.Join(dir, file+".in"), in, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&manifest, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", file, p.Entry, p.Threads, len(p.Inputs), len(p.Inputs[0]), p.OutBytes, p.Key())
	}
	return os.WriteFile(filepath.Join(dir, "probes.tsv"), []byte(manifest.String()), 0o644)
}

// ProbeResults reads run_probe's output (INDEX, RUN, hex of the output or
// ERROR ...) for the probes Probes builds now, and writes the recorded form
// (testdata/ptx/probed.tsv): atom, operand, majors, "ok" or what disagreed
// with the layouts when it was recorded, and the observed codes, comma-separated.
func ProbeResults(raw io.Reader, w io.Writer) error {
	probes, err := Probes()
	if err != nil {
		return err
	}
	outs := make([][][]byte, len(probes))
	errs := make([]string, len(probes))
	sc := bufio.NewScanner(raw)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 3)
		if len(f) != 3 {
			return fmt.Errorf("run_probe output line %q", sc.Text())
		}
		i, err := strconv.Atoi(f[0])
		if err != nil || i < 0 || i >= len(probes) {
			return fmt.Errorf("run_probe output names probe %q of %d", f[0], len(probes))
		}
		if strings.HasPrefix(f[2], "ERROR") {
			errs[i] += strings.TrimSpace(f[2]) + " "
			continue
		}
		b, err := hex.DecodeString(f[2])
		if err != nil {
			return fmt.Errorf("probe %d: %v", i, err)
		}
		outs[i] = append(outs[i], b)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for i, p := range probes {
		if errs[i] != "" || len(outs[i]) != len(p.Inputs) {
			fmt.Fprintf(w, "%s\tnot run: %s\t\n", p.Key(), strings.TrimSpace(errs[i]))
			continue
		}
		obs, err := p.Observe(outs[i])
		if err != nil {
			return err
		}
		result := "ok"
		if err := CheckObserved(p.Atom, p.Operand, obs); err != nil {
			result = err.Error()
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", p.Key(), result, joinInts(obs))
	}
	return nil
}

func joinInts(xs []int64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(x, 10))
	}
	return b.String()
}
