package editors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestHelixLanguages reads editors/helix/languages.toml and checks the
// server command, the .cute language and cute-lsp as an extra server
// (Helix 23.10's language-servers lists) of the host languages.
func TestHelixLanguages(t *testing.T) {
	data, err := os.ReadFile("helix/languages.toml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseTOMLSubset(string(data))
	if err != nil {
		t.Fatalf("helix/languages.toml: %v", err)
	}

	servers, _ := doc["language-server"].(map[string]any)
	server, _ := servers["cute-lsp"].(map[string]any)
	if server == nil {
		t.Fatal("no [language-server.cute-lsp]")
	}
	if server["command"] != "cute-lsp" {
		t.Errorf("command %v, want cute-lsp (the binary make install puts on PATH)", server["command"])
	}
	if _, err := os.Stat(filepath.Join("..", "cmd", "cute-lsp")); err != nil {
		t.Errorf("the command names no binary of this repository: %v", err)
	}
	if !reflect.DeepEqual(server["args"], []any{"serve", "--stdio"}) {
		t.Errorf("args %v, want [serve --stdio]", server["args"])
	}
	// The settings are the ones the VS Code extension declares for the
	// server (lsp/vscode_manifest_test.go ties those to Config.Merge).
	config, _ := server["config"].(map[string]any)
	cute, _ := config["cute"].(map[string]any)
	want := vscodeServerSettings(t)
	if !reflect.DeepEqual(cute, want) {
		t.Errorf("config.cute = %v, want the server settings and defaults %v", cute, want)
	}

	languages := map[string]map[string]any{}
	list, _ := doc["language"].([]any)
	for _, l := range list {
		m := l.(map[string]any)
		name, _ := m["name"].(string)
		if languages[name] != nil {
			t.Errorf("language %q is defined twice", name)
		}
		languages[name] = m
	}
	sheet := languages["cute"]
	if sheet == nil {
		t.Fatal("no [[language]] cute")
	}
	if !reflect.DeepEqual(sheet["file-types"], []any{"cute"}) || sheet["comment-token"] != "#" || sheet["scope"] != "source.cute" {
		t.Errorf("cute language: file-types %v, comment-token %v, scope %v", sheet["file-types"], sheet["comment-token"], sheet["scope"])
	}
	if !reflect.DeepEqual(sheet["language-servers"], []any{"cute-lsp"}) {
		t.Errorf("cute language servers %v, want [cute-lsp]", sheet["language-servers"])
	}
	// Host languages: cute-lsp beside the usual server, which a list
	// replacing Helix's default must keep. Helix's cpp covers .cu and .cuh.
	usual := map[string]string{"cpp": "clangd", "c": "clangd", "python": "pylsp"}
	for name, other := range usual {
		l := languages[name]
		if l == nil {
			t.Errorf("no [[language]] %s", name)
			continue
		}
		got, _ := l["language-servers"].([]any)
		if !slices.Contains(got, any("cute-lsp")) || !slices.Contains(got, any(other)) {
			t.Errorf("%s language servers %v, want %s and cute-lsp", name, got, other)
		}
		if l["file-types"] != nil {
			t.Errorf("%s: file-types would replace Helix's own list", name)
		}
	}
	var names []string
	for name := range languages {
		names = append(names, name)
	}
	sort.Strings(names)
	if !reflect.DeepEqual(names, []string{"c", "cpp", "cute", "python"}) {
		t.Errorf("languages %v", names)
	}
}

// vscodeServerSettings are the server settings editors/vscode/package.json
// declares, with their defaults, as TOML would hold them.
func vscodeServerSettings(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Default any `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for key, spec := range m.Contributes.Configuration.Properties {
		key = strings.TrimPrefix(key, "cute.")
		if key == "serverPath" {
			continue
		}
		if f, ok := spec.Default.(float64); ok {
			spec.Default = int64(f)
		}
		out[key] = spec.Default
	}
	return out
}

func TestTOMLSubsetRejectsWhatItCannotRead(t *testing.T) {
	for _, bad := range []string{
		"a = [\n  1,\n]",       // multi-line array
		"a = 'literal'",        // literal string
		"a = \"unterminated",   // unterminated string
		"[a",                   // unterminated header
		"a = 1\na = 2",         // duplicate key
		"a = { b = 1",          // unterminated inline table
		"= 1",                  // no key
		"a = 1 b",              // trailing text
		"a = 1.5",              // float
		"a = 2024-01-01",       // date
		"[a]\nb = 1\n[a]\nc=2", // table defined twice
	} {
		if _, err := parseTOMLSubset(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	got, err := parseTOMLSubset("# c\n[x.y]\nk = \"v # not a comment\" # c\n[[l]]\nn = { a = [\"b\", 2, true], c = {} }\n[[l]]\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"x": map[string]any{"y": map[string]any{"k": "v # not a comment"}},
		"l": []any{map[string]any{"n": map[string]any{"a": []any{"b", int64(2), true}, "c": map[string]any{}}}, map[string]any{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// parseTOMLSubset reads the part of TOML that Helix configurations use:
// comments, [tables] and [[arrays of tables]] with dotted names, key =
// value with bare or quoted keys, basic strings, integers, booleans,
// one-line arrays and inline tables. Anything else is an error, so the
// file stays within what this test can check.
func parseTOMLSubset(src string) (map[string]any, error) {
	root := map[string]any{}
	current := root
	defined := map[string]bool{}
	for n, line := range strings.Split(src, "\n") {
		p := &tomlParser{s: line}
		p.space()
		if p.done() {
			continue
		}
		var err error
		switch {
		case strings.HasPrefix(p.rest(), "[["):
			p.i += 2
			var path []string
			if path, err = p.keyPath("]]"); err == nil {
				current, err = arrayTable(root, path)
			}
		case strings.HasPrefix(p.rest(), "["):
			p.i++
			var path []string
			if path, err = p.keyPath("]"); err == nil {
				name := strings.Join(path, ".")
				if defined[name] {
					err = fmt.Errorf("table [%s] defined twice", name)
				}
				defined[name] = true
				if err == nil {
					current, err = table(root, path)
				}
			}
		default:
			err = p.keyValue(current)
		}
		if err == nil {
			p.space()
			if !p.done() {
				err = fmt.Errorf("unexpected %q", p.rest())
			}
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
	}
	return root, nil
}

func table(root map[string]any, path []string) (map[string]any, error) {
	m := root
	for _, k := range path {
		switch v := m[k].(type) {
		case nil:
			next := map[string]any{}
			m[k] = next
			m = next
		case map[string]any:
			m = v
		case []any:
			m = v[len(v)-1].(map[string]any)
		default:
			return nil, fmt.Errorf("%s is not a table", k)
		}
	}
	return m, nil
}

func arrayTable(root map[string]any, path []string) (map[string]any, error) {
	parent, err := table(root, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	last := path[len(path)-1]
	arr, ok := parent[last].([]any)
	if parent[last] != nil && !ok {
		return nil, fmt.Errorf("%s is not an array of tables", last)
	}
	m := map[string]any{}
	parent[last] = append(arr, m)
	return m, nil
}

type tomlParser struct {
	s string
	i int
}

func (p *tomlParser) rest() string { return p.s[p.i:] }

// done reports the end of the line, a comment included.
func (p *tomlParser) done() bool { return p.i >= len(p.s) || p.s[p.i] == '#' }

func (p *tomlParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *tomlParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *tomlParser) key() (string, error) {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '"' {
		return p.str()
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '_' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z' ||
		p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		p.i++
	}
	if start == p.i {
		return "", fmt.Errorf("a key expected at %q", p.rest())
	}
	return p.s[start:p.i], nil
}

func (p *tomlParser) keyPath(end string) ([]string, error) {
	var path []string
	for {
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		path = append(path, k)
		if !p.eat('.') {
			break
		}
	}
	p.space()
	if !strings.HasPrefix(p.rest(), end) {
		return nil, fmt.Errorf("%q expected at %q", end, p.rest())
	}
	p.i += len(end)
	return path, nil
}

func (p *tomlParser) keyValue(into map[string]any) error {
	path, err := p.keyPathUntilEquals()
	if err != nil {
		return err
	}
	v, err := p.value()
	if err != nil {
		return err
	}
	m, err := table(into, path[:len(path)-1])
	if err != nil {
		return err
	}
	last := path[len(path)-1]
	if _, dup := m[last]; dup {
		return fmt.Errorf("key %s defined twice", last)
	}
	m[last] = v
	return nil
}

func (p *tomlParser) keyPathUntilEquals() ([]string, error) {
	var path []string
	for {
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		path = append(path, k)
		if p.eat('=') {
			return path, nil
		}
		if !p.eat('.') {
			return nil, fmt.Errorf("'=' expected at %q", p.rest())
		}
	}
}

func (p *tomlParser) str() (string, error) {
	start := p.i
	p.i++ // the opening quote
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			return strconv.Unquote(p.s[start:p.i])
		}
		p.i++
	}
	return "", fmt.Errorf("unterminated string %s", p.s[start:])
}

func (p *tomlParser) value() (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("a value expected")
	}
	switch c := p.s[p.i]; {
	case c == '"':
		return p.str()
	case c == '[':
		p.i++
		arr := []any{}
		for !p.eat(']') {
			if p.i >= len(p.s) || p.s[p.i] == '#' {
				return nil, fmt.Errorf("arrays must close on their line")
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			if !p.eat(',') && !p.eat(']') {
				return nil, fmt.Errorf("',' or ']' expected at %q", p.rest())
			} else if p.s[p.i-1] == ']' {
				break
			}
		}
		return arr, nil
	case c == '{':
		p.i++
		m := map[string]any{}
		if p.eat('}') {
			return m, nil
		}
		for {
			if err := p.keyValue(m); err != nil {
				return nil, err
			}
			if p.eat('}') {
				return m, nil
			}
			if !p.eat(',') {
				return nil, fmt.Errorf("',' or '}' expected at %q", p.rest())
			}
		}
	default:
		start := p.i
		for p.i < len(p.s) && strings.IndexByte(" \t,]}#\r", p.s[p.i]) < 0 {
			p.i++
		}
		word := p.s[start:p.i]
		switch word {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		n, err := strconv.ParseInt(word, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("unsupported value %q", word)
		}
		return n, nil
	}
}
