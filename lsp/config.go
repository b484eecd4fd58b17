package lsp

import (
	"encoding/json"
	"fmt"
	"time"

	render "github.com/cute-lsp/cute-lsp/hover"
)

// Config is what the editor can set through initializationOptions and
// workspace/didChangeConfiguration, under a "cute" key or at the top level:
//
//	{"cute": {"tableCap": 64, "defaultElementType": "half_t", "arch": "sm90"}}
type Config struct {
	// TableCap bounds how many rows, and columns, of a layout's offset
	// table hover renders: 1 to render.MaxTableCap (256), whatever the
	// editor sends, since each cell is work and text of every hover.
	TableCap int `json:"tableCap"`
	// DefaultElementType is the element type assumed where a descriptor names
	// none (it sets the byte width of bank-conflict checks).
	DefaultElementType string `json:"defaultElementType"`
	// Arch is the target architecture of checks that depend on it (sm80, sm90, sm100).
	Arch string `json:"arch"`
	// DiagnosticsDelay is the debounce window of diagnostics: edits closer
	// together than it form a burst, analyzed once after it settles. The
	// default is none: edits that arrive while an analysis runs are already
	// served by one analysis after it (the worker's kick holds one), so a
	// window only delays an edit that finds the worker idle. A client that
	// edits as soon as the previous diagnostics arrive saw every edit of a
	// 500-line sheet wait out the old 10 ms window (edit p50 10.7..11.4 ms
	// with it, 4.2..7.9 ms without; make bench-lsp). The editor may still
	// set one (diagnosticsDelayMs).
	DiagnosticsDelay time.Duration `json:"-"`
	// set records which settings the editor gave a value other than the
	// default: those win over a project's .cute-lsp.json, which wins over
	// the defaults. (VS Code sends every setting, defaults included, so a
	// value equal to the default cannot tell a choice from no choice.)
	set struct{ elementType, arch bool }
}

// DefaultConfig is the configuration before the editor says otherwise.
func DefaultConfig() Config {
	return Config{TableCap: 64, DefaultElementType: "half_t", Arch: "sm90", DiagnosticsDelay: 0}
}

// configJSON mirrors Config with every field optional, so a settings object
// that names one key leaves the others as they were.
type configJSON struct {
	TableCap           *int     `json:"tableCap"`
	DefaultElementType *string  `json:"defaultElementType"`
	Arch               *string  `json:"arch"`
	DiagnosticsDelayMS *float64 `json:"diagnosticsDelayMs"`
}

// Merge returns c updated from an editor's settings object. Unknown keys are
// ignored; a key of the wrong type or out of range is an error naming it,
// and leaves c unchanged.
func (c Config) Merge(raw []byte) (Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &outer); err != nil {
		return c, fmt.Errorf("settings: not a JSON object: %v", err)
	}
	body := raw
	if nested, ok := outer["cute"]; ok {
		body = nested
	}
	var in configJSON
	if err := json.Unmarshal(body, &in); err != nil {
		return c, fmt.Errorf("settings: %v", err)
	}
	out := c
	if in.TableCap != nil {
		if *in.TableCap < 1 || *in.TableCap > render.MaxTableCap {
			return c, fmt.Errorf("settings: tableCap %d out of range 1..%d", *in.TableCap, render.MaxTableCap)
		}
		out.TableCap = *in.TableCap
	}
	if in.DefaultElementType != nil {
		if *in.DefaultElementType == "" {
			return c, fmt.Errorf("settings: defaultElementType is empty")
		}
		out.DefaultElementType = *in.DefaultElementType
		out.set.elementType = out.DefaultElementType != DefaultConfig().DefaultElementType
	}
	if in.Arch != nil {
		if *in.Arch == "" {
			return c, fmt.Errorf("settings: arch is empty")
		}
		out.Arch = *in.Arch
		out.set.arch = out.Arch != DefaultConfig().Arch
	}
	if in.DiagnosticsDelayMS != nil {
		if *in.DiagnosticsDelayMS < 0 || *in.DiagnosticsDelayMS > 10000 {
			return c, fmt.Errorf("settings: diagnosticsDelayMs %v out of range 0..10000", *in.DiagnosticsDelayMS)
		}
		out.DiagnosticsDelay = time.Duration(*in.DiagnosticsDelayMS * float64(time.Millisecond))
	}
	return out, nil
}
