package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	render "github.com/cute-lsp/cute-lsp/hover"
)

// The VS Code extension (editors/vscode) declares the settings users see and
// the languages it starts the server for; its own tests check that
// extension.js sends every declared setting. This test holds the other end:
// the declarations against what Config.Merge reads and what KindOf knows.

// settingsOnlyForTheClient are declared settings the server never sees.
var settingsOnlyForTheClient = map[string]string{
	"serverPath": "the command the extension starts",
}

// settingsOnlyForTheServer are keys Merge reads that the extension does not
// offer users.
var settingsOnlyForTheServer = map[string]string{
	"diagnosticsDelayMs": "the debounce of pushed diagnostics, tuned by tests and benchmarks",
}

type vscodeManifest struct {
	ActivationEvents []string `json:"activationEvents"`
	Contributes      struct {
		Configuration struct {
			Properties map[string]struct {
				Type    string          `json:"type"`
				Default json.RawMessage `json:"default"`
				Minimum *float64        `json:"minimum"`
				Maximum *float64        `json:"maximum"`
				Enum    []string        `json:"enum"`
			} `json:"properties"`
		} `json:"configuration"`
	} `json:"contributes"`
}

func readVSCodeManifest(t *testing.T) vscodeManifest {
	t.Helper()
	data, err := os.ReadFile("../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var m vscodeManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("editors/vscode/package.json: %v", err)
	}
	if len(m.Contributes.Configuration.Properties) == 0 {
		t.Fatal("editors/vscode/package.json declares no settings")
	}
	return m
}

// mergeKeys is every JSON key Config.Merge reads.
func mergeKeys() []string {
	var keys []string
	typ := reflect.TypeOf(configJSON{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	sort.Strings(keys)
	return keys
}

func TestVSCodeSettingsMatchConfig(t *testing.T) {
	m := readVSCodeManifest(t)
	declared := map[string]bool{}
	for full := range m.Contributes.Configuration.Properties {
		key, ok := strings.CutPrefix(full, "cute.")
		if !ok {
			t.Errorf("setting %s is outside the cute section the client synchronizes", full)
			continue
		}
		declared[key] = true
	}
	read := map[string]bool{}
	for _, key := range mergeKeys() {
		read[key] = true
		if !declared[key] && settingsOnlyForTheServer[key] == "" {
			t.Errorf("the server reads %q, which editors/vscode/package.json does not declare (declare it as cute.%s, or list it in settingsOnlyForTheServer)", key, key)
		}
		if declared[key] && settingsOnlyForTheServer[key] != "" {
			t.Errorf("%q is declared by the extension but listed in settingsOnlyForTheServer", key)
		}
	}
	for key := range declared {
		if !read[key] && settingsOnlyForTheClient[key] == "" {
			t.Errorf("editors/vscode/package.json declares cute.%s, which Config.Merge does not read", key)
		}
	}
	for key := range settingsOnlyForTheClient {
		if !declared[key] {
			t.Errorf("settingsOnlyForTheClient lists %q, which the extension no longer declares", key)
		}
	}
}

// The defaults the extension sends at start are the server's own.
func TestVSCodeSettingDefaultsMatchServer(t *testing.T) {
	m := readVSCodeManifest(t)
	defaults := map[string]json.RawMessage{}
	for full, spec := range m.Contributes.Configuration.Properties {
		key := strings.TrimPrefix(full, "cute.")
		if settingsOnlyForTheClient[key] != "" {
			continue
		}
		defaults[key] = spec.Default
	}
	raw, err := json.Marshal(map[string]any{"cute": defaults})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Config{}.Merge(raw)
	if err != nil {
		t.Fatalf("the extension's defaults %s: %v", raw, err)
	}
	want := DefaultConfig()
	want.DiagnosticsDelay = 0 // not an extension setting
	if got != want {
		t.Errorf("the extension's defaults %s give %+v, the server starts with %+v", raw, got, want)
	}
	if _, ok := render.ElementNamed(want.DefaultElementType); !ok {
		t.Errorf("default element type %q is not one hover knows", want.DefaultElementType)
	}
}

// Every value the extension's settings schema admits, the server accepts;
// a bound of the schema is a bound of Merge.
func TestVSCodeSettingBoundsMatchServer(t *testing.T) {
	m := readVSCodeManifest(t)
	merge := func(key string, value any) error {
		raw, _ := json.Marshal(map[string]any{"cute": map[string]any{key: value}})
		_, err := DefaultConfig().Merge(raw)
		return err
	}
	for full, spec := range m.Contributes.Configuration.Properties {
		key := strings.TrimPrefix(full, "cute.")
		if settingsOnlyForTheClient[key] != "" {
			continue
		}
		for _, v := range spec.Enum {
			if err := merge(key, v); err != nil {
				t.Errorf("%s: the schema admits %q, the server says %v", full, v, err)
			}
		}
		if spec.Type != "integer" {
			continue
		}
		if spec.Minimum == nil || spec.Maximum == nil {
			t.Errorf("%s: the schema should bound it as Merge does (minimum and maximum)", full)
			continue
		}
		lo, hi := int(*spec.Minimum), int(*spec.Maximum)
		for _, tc := range []struct {
			v  int
			ok bool
		}{{lo - 1, false}, {lo, true}, {hi, true}, {hi + 1, false}} {
			err := merge(key, tc.v)
			if (err == nil) != tc.ok {
				t.Errorf("%s = %d: server error %v, but the schema's bounds are [%d, %d]", full, tc.v, err, lo, hi)
			}
		}
	}
}

// Every language the extension activates on is one the server recognises
// from the language id alone (an unsaved buffer has no telling extension).
func TestVSCodeLanguagesAreKnown(t *testing.T) {
	m := readVSCodeManifest(t)
	if len(m.ActivationEvents) == 0 {
		t.Fatal("no activation events")
	}
	for _, ev := range m.ActivationEvents {
		// workspaceContains:<glob> starts the extension in a CuTe workspace
		// (for its C++ and Python files) without naming a language.
		if glob, ok := strings.CutPrefix(ev, "workspaceContains:"); ok {
			if glob == "" {
				t.Errorf("activation event %q has no pattern", ev)
			}
			continue
		}
		// onNotebook:jupyter-notebook: the notebooks the server syncs
		// (notebookSync), whose cells are Python.
		if nb, ok := strings.CutPrefix(ev, "onNotebook:"); ok {
			if nb != jupyterNotebook {
				t.Errorf("activation event %q names a notebook type the server does not sync (%s)", ev, jupyterNotebook)
			}
			continue
		}
		lang, ok := strings.CutPrefix(ev, "onLanguage:")
		if !ok {
			t.Errorf("activation event %q is neither onLanguage:<id>, onNotebook:<type> nor workspaceContains:<glob>", ev)
			continue
		}
		if k := KindOf("untitled:Untitled-1", lang); k == KindUnknown {
			t.Errorf("the extension activates on %s, which KindOf does not know", lang)
		}
	}
	if got := fmt.Sprint(KindOf("untitled:Untitled-1", "plaintext")); got != "unknown" {
		t.Errorf("KindOf(plaintext) = %s: the check above could not fail", got)
	}
}
