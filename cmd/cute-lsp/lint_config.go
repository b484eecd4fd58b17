package main

import (
	"path/filepath"

	"github.com/cute-lsp/cute-lsp/project"
)

// configs are the project configurations (.cute-lsp.json) that apply to the
// files lint reads, by folder. They are all found before the files are read
// on several cores, so that reading them needs no lock.
type configs struct {
	byDir map[string]*project.Config
}

// findConfigs finds the configuration of every folder holding one of the
// paths. A broken configuration is an error of the whole run: a typo there
// would silently change what lint reports. One project.Finder asks for
// them all, so that the folders' shared parents are looked at once.
func findConfigs(paths []string) (*configs, error) {
	c := &configs{byDir: map[string]*project.Config{}}
	var up project.Finder
	for _, p := range paths {
		dir := filepath.Dir(p)
		if _, ok := c.byDir[dir]; ok {
			continue
		}
		cfg, err := up.Find(dir)
		if err != nil {
			return nil, err
		}
		c.byDir[dir] = cfg
	}
	return c, nil
}

// of is the configuration that applies to a file (nil, which applies
// nothing, where there is none).
func (c *configs) of(file string) *project.Config { return c.byDir[filepath.Dir(file)] }

// included drops the files an exclude pattern matches; a file named on the
// command line is linted all the same (asking for it by name overrides).
func (c *configs) included(paths, args []string) []string {
	named := map[string]bool{}
	for _, a := range args {
		named[a] = true
	}
	kept := paths[:0:0]
	for _, p := range paths {
		if !named[p] && c.of(p).Excluded(p) {
			continue
		}
		kept = append(kept, p)
	}
	return kept
}
