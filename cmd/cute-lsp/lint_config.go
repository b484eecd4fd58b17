package main

import (
	"os"
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
// would silently change what lint reports.
//
// It is project.Find for each folder, the answer of each folder on the way
// up kept for the next: the folders of a tree share their parents, and
// project.Find alone asked the same parents again for each (include/cute
// + examples/cute: 25 folders, 320 system calls, a third of a millisecond
// before the first file).
func findConfigs(paths []string) (*configs, error) {
	c := &configs{byDir: map[string]*project.Config{}}
	up := configFinder{above: map[string]*project.Config{}}
	for _, p := range paths {
		dir := filepath.Dir(p)
		if _, ok := c.byDir[dir]; ok {
			continue
		}
		cfg, err := up.find(dir)
		if err != nil {
			return nil, err
		}
		c.byDir[dir] = cfg
	}
	return c, nil
}

// configFinder is project.Find with the configuration of each absolute
// folder it has walked through kept (nil: none).
type configFinder struct {
	wd    string // the working folder, once asked for
	above map[string]*project.Config
}

// find is project.Find(target).
func (f *configFinder) find(target string) (*project.Config, error) {
	dir := target
	if !filepath.IsAbs(dir) {
		if f.wd == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, err
			}
			f.wd = wd
		}
		dir = filepath.Join(f.wd, dir)
	} else {
		dir = filepath.Clean(dir)
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		dir = filepath.Dir(dir)
	}
	var walked []string
	cfg, err := func() (*project.Config, error) {
		for {
			if cfg, ok := f.above[dir]; ok {
				return cfg, nil
			}
			walked = append(walked, dir)
			candidate := filepath.Join(dir, project.FileName)
			if _, err := os.Lstat(candidate); err == nil {
				return project.Load(candidate)
			}
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
				return nil, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return nil, nil
			}
			dir = parent
		}
	}()
	if err != nil {
		return nil, err
	}
	for _, d := range walked {
		f.above[d] = cfg
	}
	return cfg, nil
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
