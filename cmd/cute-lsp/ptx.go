package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/codegen/ptx"
)

func init() {
	commands["ptx"] = command{
		summary: "print the PTX module that performs an atom: ptx \"ATOM NAME\" (or ptx --all DIR: every atom, one file each)",
		run:     runPTX,
	}
}

func runPTX(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ptx", flag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.String("all", "", "write every lowerable atom's module to this folder, with manifest.tsv, skipped.tsv, and runs.tsv with the .frag reference fragments of the mma.sync atoms")
	probe := fs.String("probe", "", "write the layout probes (ldmatrix, stmatrix, cp.async, wgmma) to this folder for codegen/ptx/device/probe.sh")
	probeResults := fs.String("probe-results", "", "read probe.sh's probed_raw.tsv and print the recorded form (testdata/ptx/probed.tsv)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp ptx \"ATOM NAME\" | cute-lsp ptx --all DIR | --probe DIR | --probe-results FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *probe != "" || *probeResults != "" {
		if err := runProbeFlags(*probe, *probeResults, stdout); err != nil {
			fmt.Fprintf(stderr, "cute-lsp ptx: %v\n", err)
			return 1
		}
		return 0
	}
	if *all != "" {
		if err := writeAllPTX(*all); err != nil {
			fmt.Fprintf(stderr, "cute-lsp ptx: %v\n", err)
			return 1
		}
		return 0
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	m, err := ptx.Lower(strings.Join(fs.Args(), " "))
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp ptx: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, m.Text)
	return 0
}

// writeAllPTX writes NNNN.ptx per lowered atom, manifest.tsv (file, target,
// atom) and skipped.tsv (atom, reason) into dir.
func writeAllPTX(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mods, skips := ptx.All()
	var manifest, skipped strings.Builder
	var runs strings.Builder
	for i, m := range mods {
		file := fmt.Sprintf("%04d.ptx", i)
		if err := os.WriteFile(filepath.Join(dir, file), []byte(m.Text), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&manifest, "%s\t%s\t%s\n", file, m.Target, m.Name)
		a, err := atom.LookupMMA(m.Name)
		if err != nil {
			continue
		}
		f, err := ptx.Reference(a)
		if err != nil {
			continue // no reference run for this atom (not mma.sync, or no exact encoding of its types)
		}
		frag := fmt.Sprintf("%04d.frag", i)
		data := append(append(append(append([]byte{}, f.A...), f.B...), f.C...), f.D...)
		if err := os.WriteFile(filepath.Join(dir, frag), data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&runs, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", file, frag, f.Threads, len(f.A), len(f.B), len(f.C), len(f.D), m.Name)
	}
	if err := os.WriteFile(filepath.Join(dir, "runs.tsv"), []byte(runs.String()), 0o644); err != nil {
		return err
	}
	for _, s := range skips {
		fmt.Fprintf(&skipped, "%s\t%s\n", s.Name, s.Reason)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.tsv"), []byte(manifest.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "skipped.tsv"), []byte(skipped.String()), 0o644)
}

func runProbeFlags(dir, results string, stdout io.Writer) error {
	if dir != "" {
		return ptx.WriteProbes(dir)
	}
	f, err := os.Open(results)
	if err != nil {
		return err
	}
	defer f.Close()
	return ptx.ProbeResults(f, stdout)
}
