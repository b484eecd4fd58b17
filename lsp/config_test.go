package lsp

import (
	"strings"
	"testing"
	"time"
)

// By default an edit that finds the diagnostics worker idle is analyzed at
// once: with a window, a client editing as soon as the last diagnostics
// arrived waited it out on every edit of a small sheet.
func TestDefaultConfigAnalyzesEditsAtOnce(t *testing.T) {
	if d := DefaultConfig().DiagnosticsDelay; d != 0 {
		t.Errorf("DefaultConfig().DiagnosticsDelay = %v, want 0", d)
	}
}

func TestConfigMerge(t *testing.T) {
	base := DefaultConfig()
	for _, tc := range []struct {
		settings string
		want     func(Config) bool
		err      string
	}{
		{`{"cute":{"tableCap":8,"defaultElementType":"float","arch":"sm100"}}`, func(c Config) bool {
			return c.TableCap == 8 && c.DefaultElementType == "float" && c.Arch == "sm100"
		}, ""},
		{`{"tableCap":3}`, func(c Config) bool { return c.TableCap == 3 && c.Arch == base.Arch }, ""},
		{`{"cute":{"diagnosticsDelayMs":25}}`, func(c Config) bool { return c.DiagnosticsDelay == 25*time.Millisecond }, ""},
		{`{"cute":{"diagnosticsDelayMs":2.5}}`, func(c Config) bool { return c.DiagnosticsDelay == 2500*time.Microsecond }, ""},
		{`{"other":{"x":1}}`, func(c Config) bool { return c == base }, ""},
		{`null`, func(c Config) bool { return c == base }, ""},
		{``, func(c Config) bool { return c == base }, ""},
		{`{"cute":{"tableCap":"many"}}`, nil, "tableCap"},
		{`{"cute":{"tableCap":0}}`, nil, "tableCap 0 out of range"},
		{`{"cute":{"tableCap":256}}`, func(c Config) bool { return c.TableCap == 256 }, ""},
		{`{"cute":{"tableCap":257}}`, nil, "tableCap 257 out of range 1..256"},
		{`{"cute":{"tableCap":65536}}`, nil, "tableCap 65536 out of range 1..256"},
		{`{"cute":{"arch":""}}`, nil, "arch is empty"},
		{`{"cute":{"defaultElementType":""}}`, nil, "defaultElementType is empty"},
		{`{"cute":{"diagnosticsDelayMs":-1}}`, nil, "diagnosticsDelayMs"},
		{`[1,2]`, nil, "not a JSON object"},
	} {
		got, err := base.Merge([]byte(tc.settings))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Merge(%s) error = %v, want one mentioning %q", tc.settings, err, tc.err)
			}
			if got != base {
				t.Errorf("Merge(%s) failed but changed the config: %+v", tc.settings, got)
			}
			continue
		}
		if err != nil || !tc.want(got) {
			t.Errorf("Merge(%s) = %+v, %v", tc.settings, got, err)
		}
	}
}
