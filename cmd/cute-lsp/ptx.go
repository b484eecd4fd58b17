package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
	all := fs.String("all", "", "write every lowerable atom's module to this folder, with manifest.tsv and skipped.tsv")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp ptx \"ATOM NAME\" | cute-lsp ptx --all DIR")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
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
	for i, m := range mods {
		file := fmt.Sprintf("%04d.ptx", i)
		if err := os.WriteFile(filepath.Join(dir, file), []byte(m.Text), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&manifest, "%s\t%s\t%s\n", file, m.Target, m.Name)
	}
	for _, s := range skips {
		fmt.Fprintf(&skipped, "%s\t%s\n", s.Name, s.Reason)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.tsv"), []byte(manifest.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "skipped.tsv"), []byte(skipped.String()), 0o644)
}
