// Package project reads a project's cute-lsp configuration, the file
// .cute-lsp.json, which lint and the language server both apply:
//
//	{
//	  "exclude": ["third_party/**", "build/**", "**/*_generated.cu"],
//	  "severity": {"non-compact": "off", "coalescible": "warning"},
//	  "defaultElementType": "half_t",
//	  "arch": "sm90"
//	}
//
// The file applies to its folder and everything below it; for a file being
// checked, the nearest one in its folder or a folder above wins (the search
// stops at a folder holding .git, the repository's root). Patterns are
// slash-separated and relative to the configuration's folder; "*" matches
// within one path segment, "**" any number of whole segments. A severity is
// "error", "warning", "info", "hint" or "off" (the finding is dropped).
//
// JSON rather than TOML: the standard library reads it, editors validate it
// against a schema, and the editor settings use the same key names.
package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/internal/editdist"
)

// FileName is the configuration file's name.
const FileName = ".cute-lsp.json"

// MaxFileSize bounds what is read of a configuration file: a real one is a
// few hundred bytes.
const MaxFileSize = 1 << 20

// Config is one parsed configuration file.
type Config struct {
	Path               string // the file
	Dir                string // its folder: patterns are relative to it
	Exclude            []string
	Severity           map[string]Level // by finding code
	DefaultElementType string
	Arch               string
}

// Level is a severity a configuration sets for a code; LevelOff drops it.
type Level int

const (
	LevelOff Level = iota
	LevelError
	LevelWarning
	LevelInfo
	LevelHint
)

var levels = map[string]Level{"off": LevelOff, "error": LevelError, "warning": LevelWarning, "info": LevelInfo, "hint": LevelHint}

// Error is a mistake in a configuration file, at a 1-based line and column.
type Error struct {
	Path         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg) }

// Parse reads a configuration; path names it in errors and sets Dir.
func Parse(file string, data []byte) (*Config, error) {
	c := &Config{Path: file, Dir: filepath.Dir(file)}
	errAt := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, int(off))
		return &Error{Path: file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errAt(0, "the configuration must be one JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		keyAt := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(file, data, err, keyAt, true)
		}
		key := tok.(string)
		keyAt = skipSpaceAndComma(data, keyAt)
		if seen[key] {
			return nil, errAt(keyAt, "%q is set twice", key)
		}
		seen[key] = true
		valueAt := skipSpaceAndColon(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			// A value's syntax error is reported at the value: Decode's
			// offsets are not the file's.
			return nil, jsonError(file, data, err, valueAt, false)
		}
		if err := c.set(key, raw, func(format string, args ...any) error { return errAt(valueAt, format, args...) }); err != nil {
			if err == errUnknownKey {
				return nil, errAt(keyAt, "unknown key %q%s (keys: exclude, severity, defaultElementType, arch)", key, didYouMean(key, []string{"exclude", "severity", "defaultElementType", "arch"}))
			}
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonError(file, data, err, dec.InputOffset(), true)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return nil, errAt(skipSpaceAndComma(data, end), "text after the configuration object")
	}
	return c, nil
}

var errUnknownKey = errors.New("unknown key")

// set reads one key's value into c.
func (c *Config) set(key string, raw json.RawMessage, bad func(string, ...any) error) error {
	switch key {
	case "exclude":
		if err := json.Unmarshal(raw, &c.Exclude); err != nil {
			return bad("exclude must be a list of path patterns")
		}
		for _, p := range c.Exclude {
			if err := checkPattern(p); err != nil {
				return bad("exclude pattern %q: %v", p, err)
			}
		}
	case "severity":
		var m map[string]string
		if err := json.Unmarshal(raw, &m); err != nil {
			return bad(`severity must map finding codes to "error", "warning", "info", "hint" or "off"`)
		}
		known := make([]string, 0, len(analysis.Codes))
		for _, d := range analysis.Codes {
			known = append(known, d.Code)
		}
		codes := make([]string, 0, len(m))
		for code := range m {
			codes = append(codes, code)
		}
		sort.Strings(codes)
		c.Severity = map[string]Level{}
		for _, code := range codes {
			if !contains(known, code) {
				return bad("severity: unknown finding code %q%s", code, didYouMean(code, known))
			}
			l, ok := levels[m[code]]
			if !ok {
				return bad(`severity of %q: %q is not "error", "warning", "info", "hint" or "off"`, code, m[code])
			}
			c.Severity[code] = l
		}
	case "defaultElementType", "arch":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s == "" {
			return bad("%s must be a non-empty string", key)
		}
		if key == "arch" {
			c.Arch = s
		} else {
			c.DefaultElementType = s
		}
	default:
		return errUnknownKey
	}
	return nil
}

// Load reads the configuration file at path, at most MaxFileSize bytes of
// a regular file.
func Load(file string) (*Config, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", file)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", file, MaxFileSize)
	}
	return Parse(file, data)
}

// FindWithin returns the configuration that applies to a file or folder:
// the nearest .cute-lsp.json in it (a folder) or a folder above, stopping
// after the folder that holds .git, and after the folder top when it is
// not "" (the language server reads no configuration above its workspace
// folder). It returns nil and no error where there is none.
func FindWithin(target, top string) (*Config, error) { return (&Finder{Top: top}).Find(target) }

// A Finder answers FindWithin(target, Top) for target after target,
// keeping the answer of each folder it walks through: the folders of a
// tree share their parents, which FindWithin alone would ask again for
// each (lint over include/cute + examples/cute: 25 folders, 320 system
// calls before the first file). Not safe for concurrent use.
type Finder struct {
	Top   string             // as FindWithin's top ("": none)
	wd    string             // the working folder, once asked for
	above map[string]*Config // the answer of each absolute folder walked through
}

// Find is FindWithin(target, f.Top).
func (f *Finder) Find(target string) (*Config, error) {
	top := ""
	if f.Top != "" {
		abs, err := f.abs(f.Top)
		if err != nil {
			return nil, err
		}
		top = abs
	}
	dir, err := f.abs(target)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		dir = filepath.Dir(dir)
	}
	var walked []string
	cfg, err := func() (*Config, error) {
		for {
			if cfg, ok := f.above[dir]; ok {
				return cfg, nil
			}
			walked = append(walked, dir)
			candidate := filepath.Join(dir, FileName)
			if _, err := os.Lstat(candidate); err == nil {
				return Load(candidate)
			}
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil || dir == top {
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
	if f.above == nil {
		f.above = map[string]*Config{}
	}
	for _, d := range walked {
		f.above[d] = cfg
	}
	return cfg, nil
}

// abs is filepath.Abs(path), asking for the working folder once.
func (f *Finder) abs(path string) (string, error) {
	if filepath.IsAbs(path) {
		return filepath.Clean(path), nil
	}
	if f.wd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		f.wd = wd
	}
	return filepath.Join(f.wd, path), nil
}

// Excluded reports whether an exclude pattern matches file (a path under
// c.Dir; a file outside it is never excluded).
func (c *Config) Excluded(file string) bool {
	if c == nil || len(c.Exclude) == 0 {
		return false
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	base, err := filepath.Abs(c.Dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, p := range c.Exclude {
		if matchPattern(strings.Split(strings.Trim(p, "/"), "/"), strings.Split(rel, "/")) {
			return true
		}
	}
	return false
}

// Apply sets the configured severity of each finding and drops the ones
// set to "off".
func (c *Config) Apply(findings []analysis.Finding) []analysis.Finding {
	if c == nil || len(c.Severity) == 0 {
		return findings
	}
	kept := findings[:0:0]
	for _, f := range findings {
		if l, ok := c.Severity[f.Code]; ok {
			if l == LevelOff {
				continue
			}
			f.Severity = analysis.Severity(l)
		}
		kept = append(kept, f)
	}
	return kept
}

// matchPattern matches path segments against pattern segments, "**"
// standing for any number of whole segments (a pattern naming a folder
// also matches everything under it).
func matchPattern(pat, segs []string) bool {
	if len(pat) == 0 {
		return true // the pattern named a folder holding the file
	}
	if pat[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if matchPattern(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], segs[0])
	return ok && matchPattern(pat[1:], segs[1:])
}

// checkPattern rejects a pattern path.Match cannot read, or an empty one.
func checkPattern(p string) error {
	if strings.Trim(p, "/") == "" {
		return errors.New("empty pattern")
	}
	for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// didYouMean is "; did you mean X?" for the nearest of names within three
// edits, or "".
func didYouMean(s string, names []string) string {
	if best, ok := editdist.Nearest(s, names, 3); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

// jsonError places a JSON decoding error at fallback or, for a syntax
// error the Decoder's Token found (ownOffset), at the character it names.
func jsonError(file string, data []byte, err error, fallback int64, ownOffset bool) error {
	off := fallback
	var syn *json.SyntaxError
	if errors.As(err, &syn) && ownOffset && syn.Offset > 0 {
		off = syn.Offset - 1
	}
	line, col := lineCol(data, int(off))
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		msg = "the configuration ends early"
	}
	return &Error{Path: file, Line: line, Column: col, Msg: "not valid JSON: " + msg}
}

func skipSpaceAndComma(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return off
}

func skipSpaceAndColon(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n:", data[off]) >= 0 {
		off++
	}
	return off
}

// lineCol is the 1-based line and column (in code points) of offset off.
func lineCol(data []byte, off int) (int, int) {
	if off > len(data) {
		off = len(data)
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, utf8.RuneCount(data[start:off]) + 1
}
