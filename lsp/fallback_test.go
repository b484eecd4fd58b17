package lsp

import (
	"context"
	"sort"
	"strings"
	"testing"
)

// applyEdits applies non-overlapping edits to text.
func applyEdits(text string, edits []Edit) string {
	sorted := append([]Edit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Span.Start > sorted[j].Span.Start })
	for _, e := range sorted {
		text = text[:e.Span.Start] + e.NewText + text[e.Span.End:]
	}
	return text
}

func TestFallbackBracketFindingsAndFixes(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		messages   []string
		fixed      string // the text after applying every finding's first fix; "" when no finding
	}{
		{"balanced", "a = ((4,8),(2,2)):((1,4),(32,64))\nsw = Sw<3,4,3> o a\n", nil, ""},
		{"comments and strings do not count", "a = (1,2) # ( [\nb = \"(((\" // )\n", nil, ""},
		{"unclosed at end of file", "a = ((4,8),(2,2)", []string{"'(' is never closed"}, "a = ((4,8),(2,2))"},
		{"unclosed before the next binding", "a = (4,8 # note\nb = 1\n", []string{"'(' is never closed"}, "a = (4,8) # note\nb = 1\n"},
		{"nested unclosed", "a = [(4,8\nb = 1\n", []string{"'(' is never closed", "'[' is never closed"}, "a = [(4,8)]\nb = 1\n"},
		{"continuation lines are fine", "a = ((4,8),\n     (2,2))\n", nil, ""},
		{"stray closer", "a = (4,8))\n", []string{"')' closes nothing"}, "a = (4,8)\n"},
		{"mismatched closer", "a = (4,8]\n", []string{"']' does not match the '(' opened at 1:5"}, "a = (4,8)\n"},
		{"comparison is not a bracket", "assert size(a) < 9\n", nil, ""},
	} {
		snap := NewSnapshot("file:///t.cute", 1, KindSheet, tc.text)
		findings := Fallback{}.Analyze(context.Background(), snap, DefaultConfig())
		var msgs []string
		var edits []Edit
		for _, f := range findings {
			msgs = append(msgs, f.Message)
			if f.Code != "unbalanced-bracket" || f.Severity != SeverityError || len(f.Fixes) == 0 {
				t.Errorf("%s: finding %+v", tc.name, f)
			}
		}
		if strings.Join(msgs, "|") != strings.Join(tc.messages, "|") {
			t.Errorf("%s: messages %q, want %q", tc.name, msgs, tc.messages)
		}
		if len(findings) == 0 {
			continue
		}
		// The outermost unclosed bracket's fix closes everything inside it;
		// otherwise apply each finding's fix.
		last := findings[len(findings)-1]
		edits = append(edits, last.Fixes[0].Edits...)
		if got := applyEdits(tc.text, edits); got != tc.fixed {
			t.Errorf("%s: after the fix %q, want %q", tc.name, got, tc.fixed)
		}
		if again := (Fallback{}).Analyze(context.Background(), NewSnapshot("file:///t.cute", 2, KindSheet, tc.fixed), DefaultConfig()); len(again) != 0 {
			t.Errorf("%s: findings remain after the fix: %+v", tc.name, again)
		}
	}
}

func TestFallbackIgnoresHostFiles(t *testing.T) {
	for _, uri := range []string{"file:///k.cu", "file:///k.py", "file:///k.mlir"} {
		snap := NewSnapshot(uri, 1, KindOf(uri, ""), "x = ((((\n")
		if f := (Fallback{}).Analyze(context.Background(), snap, DefaultConfig()); len(f) != 0 {
			t.Errorf("%s: %+v", uri, f)
		}
	}
}

func TestFallbackNames(t *testing.T) {
	text := "tile = (4,8):(1,4)\n# tile\nthr = tile\ntile2 = thr\n"
	snap := NewSnapshot("file:///t.cute", 1, KindSheet, text)
	ctx := context.Background()
	f := Fallback{}
	use := strings.Index(text, "= tile\n") + 3
	if defs := f.Definition(ctx, snap, use); len(defs) != 1 || defs[0] != (Span{0, 4}) {
		t.Errorf("definition = %+v", defs)
	}
	if d := f.Definition(ctx, snap, strings.Index(text, "# tile")+3); d != nil {
		t.Errorf("definition from a comment = %+v", d)
	}
	if refs := f.References(ctx, snap, 1, false); len(refs) != 1 {
		t.Errorf("references without the declaration = %+v", refs)
	}
	edits, err := f.Rename(ctx, snap, use, "t")
	if err != nil || applyEdits(text, edits) != "t = (4,8):(1,4)\n# tile\nthr = t\ntile2 = thr\n" {
		t.Errorf("rename: %v %q", err, applyEdits(text, edits))
	}
	if _, err := f.Rename(ctx, snap, use, "thr"); err == nil {
		t.Error("rename onto a bound name succeeded")
	}
	if _, err := f.Rename(ctx, snap, use, "a-b"); err == nil {
		t.Error("rename to a non-name succeeded")
	}
	syms := f.Symbols(ctx, snap)
	if len(syms) != 3 || syms[1].Name != "thr" || syms[1].Detail != "tile" {
		t.Errorf("symbols = %+v", syms)
	}
	items := f.Completion(ctx, snap, DefaultConfig(), len(text)-1) // after "thr" on the last line
	if len(items) != 1 || items[0].Label != "thr" {
		t.Errorf("completion = %+v", items)
	}
	h, ok := f.Hover(ctx, snap, DefaultConfig(), use)
	if !ok || !strings.Contains(h.Markdown, "tile = (4,8):(1,4)") || h.Span != (Span{use - 1, use + 3}) {
		t.Errorf("hover = %+v %v", h, ok)
	}
	if edits := f.Format(ctx, NewSnapshot("file:///t.cute", 1, KindSheet, "a = 1  \nb = 2"), DefaultConfig()); applyEdits("a = 1  \nb = 2", edits) != "a = 1\nb = 2\n" {
		t.Errorf("format edits = %+v", edits)
	}
	toks := f.SemanticTokens(ctx, snap)
	if len(toks) == 0 || toks[0].Modifiers&ModDeclaration == 0 {
		t.Errorf("tokens = %+v", toks)
	}
}
