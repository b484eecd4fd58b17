package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"runtime/pprof"
	"strings"
)

// startCPUProfile writes a CPU profile of the rest of the run to path
// (lint's hidden -cpuprofile flag, for measuring where its time goes);
// stop ends it.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// printVisibleDefaults is fset.PrintDefaults without the hidden flags:
// those whose usage is empty.
func printVisibleDefaults(fset *flag.FlagSet, w io.Writer) {
	var all bytes.Buffer
	fset.SetOutput(&all)
	fset.PrintDefaults()
	fset.SetOutput(w)
	lines := strings.SplitAfter(all.String(), "\n")
	for i := 0; i < len(lines); i++ {
		// A flag is its "  -name ..." line and its indented usage line.
		if i+1 < len(lines) && strings.HasPrefix(lines[i], "  -") && strings.TrimSpace(lines[i+1]) == "" && lines[i+1] != "" {
			i++
			continue
		}
		io.WriteString(w, lines[i])
	}
}
