package project

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: any text is a configuration or an *Error at a line and column
// inside the text, never a panic.
func FuzzParse(f *testing.F) {
	f.Add(`{"exclude": ["gen/**"], "severity": {"non-compact": "off"}, "defaultElementType": "float", "arch": "sm90"}`)
	f.Add("{\n \"severity\": {\"non-compat\": \"off\"}\n}")
	f.Add(`{"exclude": ["a/[b"]}`)
	f.Add(`{"arch": "sm90"} {}`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Parse("/p/.cute-lsp.json", []byte(src))
		if err == nil {
			if c == nil {
				t.Fatal("no configuration and no error")
			}
			return
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Fatalf("%q: error %T %v without a position", src, err, err)
		}
		lines := strings.Count(src, "\n") + 1
		if pe.Line < 1 || pe.Line > lines || pe.Column < 1 {
			t.Fatalf("%q: position %d:%d outside the text (%d lines)", src, pe.Line, pe.Column, lines)
		}
	})
}
