package lsp

// Marker tests: golden tests of every feature at positions named in the
// sources themselves, after gopls's marker tests.
//
// Each file testdata/markers/*.{cute,cu,py,mlir} is a source whose comments
// carry markers; testdata/markers/FILE.golden holds the expected output of
// every marker, one section per marker. `go test ./lsp -run Marker -update`
// rewrites the goldens from what the features answer now (review the diff).
//
// # Markers
//
// A marker is `@name` or `@name(arg, ...)` in a comment (`#` or `//` in a
// sheet, `//` in C++/CUDA and MLIR, `#` in Python), preceded by a blank or
// the comment's opener. Several markers may share a comment. A marker applies
// to its line when code comes before it there, and otherwise to the nearest
// line above that holds code (so a comment-only line of markers annotates the
// line above it).
//
// Arguments are Go-quoted strings ("..." or `...`), regular expressions
// (re"..." or re`...`), integers, and identifiers. A location (loc) is
//
//   - "text": the first occurrence of text on the marker's line (in the part
//     before the first marker);
//   - re"regexp": the first match there, or its first group when it has one
//     (re"comp()" is the point just after "comp");
//   - name: a location declared anywhere in the file by @loc(name, loc).
//
// The markers:
//
//	@loc(name, loc)                 declares a named location
//	@hover(loc)                     hover at loc: the span and the markdown
//	@diag(loc, "code", "substring") a finding with that code whose span holds loc and whose message contains the substring
//	@nodiag                         no finding starts on the line
//	@fix(loc, "title")              applies the quick fix of the finding at loc whose title contains "title"
//	@refactor(loc, "title")         applies the code action at loc whose title contains "title"
//	@complete(loc, "label", ...)    completion at loc offers at least these labels
//	@signature(loc, "op", n)        signature help at loc: the operation's signature, parameter n active
//	@nosignature(loc)               no signature help at loc
//	@def(loc, target)               the definition of the name at loc is target
//	@refs(loc, target...)           the references to the name at loc (definition included) are exactly the targets
//	@rename(loc, "newName")         renames the name at loc (or records why it cannot)
//	@inlay                          the inlay hints of the line
//	@tokens                         the semantic tokens of the line
//	@symbols                        the document outline
//	@format                         the document after formatting
//
// Every finding of a file must be expected by a @diag marker: a finding no
// marker names fails the test, so the goldens record every finding there is.
// Golden sections are named "LINE: @marker(args)". Edits (fixes, refactors,
// renames, formatting) are recorded as the lines they change, "-" before and
// "+" after; every other line of the file is as the source has it.
//
// Host files (C++/CUDA, Python, MLIR) scan their comments for descriptors, so
// there the markers' text is replaced by blanks before analysis (offsets and
// lines are unchanged); sheets are analyzed as written.

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/cute-lsp/cute-lsp/analysis"
)

var updateGoldens = flag.Bool("update", false, "rewrite the marker tests' golden files")

const markerDir = "../testdata/markers"

// markerNames are the markers the language knows, with their argument counts
// (-1: at least the absolute value).
var markerNames = map[string]int{
	"loc": 2, "hover": 1, "diag": 3, "nodiag": 0, "fix": 2, "refactor": 2,
	"complete": -2, "signature": 3, "nosignature": 1, "def": 2, "refs": -1, "rename": 2,
	"inlay": 0, "tokens": 0, "symbols": 0, "format": 0,
}

// markerArg is one argument of a marker.
type markerArg struct {
	kind string // "string", "re", "ident", "int"
	text string // the string's value, the regexp, the identifier, the digits
}

func (a markerArg) String() string {
	switch a.kind {
	case "string":
		return strconv.Quote(a.text)
	case "re":
		return "re" + strconv.Quote(a.text)
	}
	return a.text
}

// marker is one marker of a source.
type marker struct {
	name   string
	args   []markerArg
	line   int // 0-based line the marker is written on
	target int // 0-based line it applies to
	raw    string
}

func (m *marker) header() string {
	return fmt.Sprintf("%d: %s", m.target+1, m.raw)
}

// markedFile is a source with its markers.
type markedFile struct {
	name    string
	text    string // as written
	blanked string // the text analyzed
	kind    Kind
	markers []*marker
	// codeEnd[i] is the byte length of line i before its first marker.
	codeEnd map[int]int
	locs    map[string]Span
}

var markerStart = regexp.MustCompile(`(^|[\s#/])@([a-z]+)\b`)

// parseMarkedFile finds the markers of a source.
func parseMarkedFile(name, text string) (*markedFile, error) {
	f := &markedFile{name: name, text: text, kind: KindOf(name, ""), codeEnd: map[int]int{}, locs: map[string]Span{}}
	lines := strings.Split(text, "\n")
	blanked := []byte(text)
	lineStart := 0
	lastCode := -1
	for i, line := range lines {
		first := -1
		end := -1
		for pos := 0; pos < len(line); {
			loc := markerStart.FindStringSubmatchIndex(line[pos:])
			if loc == nil {
				break
			}
			at := pos + loc[4] - 1 // the '@'
			nm := line[pos+loc[4] : pos+loc[5]]
			if _, known := markerNames[nm]; !known {
				pos = pos + loc[5]
				continue
			}
			m := &marker{name: nm, line: i}
			next := pos + loc[5]
			if next < len(line) && line[next] == '(' {
				args, n, err := parseMarkerArgs(line[next:])
				if err != nil {
					return nil, fmt.Errorf("%s:%d: @%s: %v", name, i+1, nm, err)
				}
				m.args = args
				next += n
			}
			m.raw = line[at:next]
			if want := markerNames[nm]; (want >= 0 && len(m.args) != want) || (want < 0 && len(m.args) < -want) {
				return nil, fmt.Errorf("%s:%d: %s: wrong number of arguments", name, i+1, m.raw)
			}
			if first < 0 {
				first = at
			}
			end = next
			f.markers = append(f.markers, m)
			pos = next
		}
		code := line
		if first >= 0 {
			code = line[:first]
			f.codeEnd[i] = first
			if f.kind != KindSheet {
				for k := lineStart + first; k < lineStart+end; k++ {
					blanked[k] = ' '
				}
			}
		}
		hasCode := strings.TrimFunc(code, func(r rune) bool { return unicode.IsSpace(r) || r == '#' || r == '/' }) != ""
		for _, m := range f.markers {
			if m.line == i {
				if hasCode {
					m.target = i
				} else {
					m.target = lastCode
				}
				if m.target < 0 {
					return nil, fmt.Errorf("%s:%d: %s: no code line above to apply to", name, i+1, m.raw)
				}
			}
		}
		if hasCode {
			lastCode = i
		}
		lineStart += len(line) + 1
	}
	f.blanked = string(blanked)
	snap := NewSnapshot("file:///markers/"+name, 1, f.kind, f.text)
	for _, m := range f.markers {
		if m.name != "loc" {
			continue
		}
		if m.args[0].kind != "ident" {
			return nil, fmt.Errorf("%s:%d: %s: the first argument names the location", name, m.line+1, m.raw)
		}
		sp, err := f.locate(snap, m, m.args[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %v", name, m.line+1, m.raw, err)
		}
		f.locs[m.args[0].text] = sp
	}
	return f, nil
}

// parseMarkerArgs reads "(arg, ...)" at the start of s; n is its length.
func parseMarkerArgs(s string) (args []markerArg, n int, err error) {
	i := 1
	skip := func() {
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	for {
		skip()
		if i >= len(s) {
			return nil, 0, fmt.Errorf("unclosed argument list")
		}
		if s[i] == ')' && len(args) == 0 {
			return args, i + 1, nil
		}
		var a markerArg
		switch {
		case strings.HasPrefix(s[i:], `re"`), strings.HasPrefix(s[i:], "re`"):
			q, err := strconv.QuotedPrefix(s[i+2:])
			if err != nil {
				return nil, 0, err
			}
			a.kind, a.text = "re", mustUnquote(q)
			i += 2 + len(q)
		case s[i] == '"' || s[i] == '`':
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return nil, 0, err
			}
			a.kind, a.text = "string", mustUnquote(q)
			i += len(q)
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '-' || unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j]))) {
				j++
			}
			if j == i {
				return nil, 0, fmt.Errorf("unexpected %q in arguments", s[i:])
			}
			a.text = s[i:j]
			a.kind = "ident"
			if _, err := strconv.Atoi(a.text); err == nil {
				a.kind = "int"
			}
			i = j
		}
		args = append(args, a)
		skip()
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		if i < len(s) && s[i] == ')' {
			return args, i + 1, nil
		}
		return nil, 0, fmt.Errorf("expected ',' or ')' at %q", s[i:])
	}
}

func mustUnquote(q string) string {
	s, err := strconv.Unquote(q)
	if err != nil {
		panic(err)
	}
	return s
}

// locate resolves a location argument of m.
func (f *markedFile) locate(snap *Snapshot, m *marker, a markerArg) (Span, error) {
	line := snap.LineSpan(m.target)
	code := snap.Text[line.Start:line.End]
	if e, ok := f.codeEnd[m.target]; ok {
		code = code[:e]
	}
	switch a.kind {
	case "string":
		k := strings.Index(code, a.text)
		if k < 0 {
			return Span{}, fmt.Errorf("%q is not on line %d", a.text, m.target+1)
		}
		return Span{line.Start + k, line.Start + k + len(a.text)}, nil
	case "re":
		re, err := regexp.Compile(a.text)
		if err != nil {
			return Span{}, err
		}
		loc := re.FindStringSubmatchIndex(code)
		if loc == nil {
			return Span{}, fmt.Errorf("re%q matches nothing on line %d", a.text, m.target+1)
		}
		if len(loc) >= 4 && loc[2] >= 0 {
			return Span{line.Start + loc[2], line.Start + loc[3]}, nil
		}
		return Span{line.Start + loc[0], line.Start + loc[1]}, nil
	case "ident":
		sp, ok := f.locs[a.text]
		if !ok {
			return Span{}, fmt.Errorf("no @loc(%s, ...) in the file", a.text)
		}
		return sp, nil
	}
	return Span{}, fmt.Errorf("%v is not a location", a)
}

// markerRun is the state of one file's test.
type markerRun struct {
	f        *markedFile
	snap     *Snapshot // of the analyzed text
	features *Analyzed
	cfg      Config
	findings []Finding
	claimed  map[int]bool
	got      map[string]string // golden sections produced
	order    []string
	failures []string
}

func (r *markerRun) fail(m *marker, format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf("%s:%d: %s: %s", r.f.name, m.line+1, m.raw, fmt.Sprintf(format, args...)))
}

func (r *markerRun) record(m *marker, out string) {
	h := m.header()
	for k := 2; ; k++ {
		if _, dup := r.got[h]; !dup {
			break
		}
		h = fmt.Sprintf("%s #%d", m.header(), k)
	}
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	r.got[h] = out
	r.order = append(r.order, h)
}

// pos renders an offset as LINE:COLUMN, 1-based, counting characters.
func (r *markerRun) pos(off int) string {
	p := r.snap.Position(off, UTF32)
	return fmt.Sprintf("%d:%d", p.Line+1, p.Character+1)
}

func (r *markerRun) span(s Span) string {
	return fmt.Sprintf("%s-%s %q", r.pos(s.Start), r.pos(s.End), r.f.text[s.Start:s.End])
}

// changes renders edits as the lines they change.
func (r *markerRun) changes(edits []Edit) string {
	after, err := applyMarkerEdits(r.f.text, edits)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	return lineChanges(r.f.text, after)
}

func applyMarkerEdits(text string, edits []Edit) (string, error) {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Span.Start < sorted[j].Span.Start })
	var b strings.Builder
	at := 0
	for _, e := range sorted {
		if e.Span.Start < at || e.Span.End > len(text) || e.Span.Start > e.Span.End {
			return "", fmt.Errorf("edits overlap or leave the text: %+v", sorted)
		}
		b.WriteString(text[at:e.Span.Start])
		b.WriteString(e.NewText)
		at = e.Span.End
	}
	b.WriteString(text[at:])
	return b.String(), nil
}

// lineChanges lists the lines that differ between before and after, as a
// line diff: "-N: old" and "+N: new".
func lineChanges(before, after string) string {
	if before == after {
		return "(no change)\n"
	}
	var b strings.Builder
	for _, d := range lineDiff(strings.Split(before, "\n"), strings.Split(after, "\n")) {
		if d.op != ' ' {
			fmt.Fprintf(&b, "%c%d: %s\n", d.op, d.line, d.text)
		}
	}
	return b.String()
}

type diffLine struct {
	op   byte // ' ', '-', '+'
	line int  // 1-based, in before for ' ' and '-', in after for '+'
	text string
}

// lineDiff is a longest-common-subsequence diff of two line lists.
func lineDiff(a, b []string) []diffLine {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, diffLine{' ', i + 1, a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, diffLine{'-', i + 1, a[i]})
			i++
		default:
			out = append(out, diffLine{'+', j + 1, b[j]})
			j++
		}
	}
	return out
}

// textDiff renders want against got for a failure message.
func textDiff(want, got string) string {
	var b strings.Builder
	for _, d := range lineDiff(strings.Split(want, "\n"), strings.Split(got, "\n")) {
		fmt.Fprintf(&b, "\t%c %s\n", d.op, d.text)
	}
	return b.String()
}

var severityNames = map[Severity]string{SeverityError: "error", SeverityWarning: "warning", SeverityInformation: "info", SeverityHint: "hint"}

func (r *markerRun) finding(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s at %s\n%s\n", severityNames[f.Severity], f.Code, r.span(f.Span), f.Message)
	for _, rel := range f.Related {
		fmt.Fprintf(&b, "related %s: %s\n", r.span(rel.Span), rel.Message)
	}
	for _, fix := range f.Fixes {
		fmt.Fprintf(&b, "fix: %s\n", fix.Title)
	}
	return b.String()
}

func (r *markerRun) loc(m *marker, i int) (Span, bool) {
	sp, err := r.f.locate(r.snap, m, m.args[i])
	if err != nil {
		r.fail(m, "%v", err)
		return Span{}, false
	}
	return sp, true
}

func holds(s Span, off int) bool {
	return s.Start <= off && off < s.End || s.Start == s.End && s.Start == off
}

func (r *markerRun) run(m *marker) {
	ctx := context.Background()
	switch m.name {
	case "loc":
	case "hover":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		h, ok := r.features.Hover(ctx, r.snap, r.cfg, sp.Start)
		if !ok {
			r.record(m, "(no hover)")
			return
		}
		r.record(m, "span "+r.span(h.Span)+"\n"+h.Markdown)
	case "diag":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		code, sub := m.args[1].text, m.args[2].text
		for i, f := range r.findings {
			if f.Code == code && holds(f.Span, sp.Start) && !r.claimed[i] {
				r.claimed[i] = true
				if !strings.Contains(f.Message, sub) {
					r.fail(m, "the message %q does not contain %q", f.Message, sub)
				}
				r.record(m, r.finding(f))
				return
			}
		}
		var near []string
		for _, f := range r.findings {
			if r.snap.LineOf(f.Span.Start) == m.target {
				near = append(near, f.Code+": "+f.Message)
			}
		}
		r.fail(m, "no %s finding at %s; the line has %q", code, r.pos(sp.Start), near)
	case "nodiag":
		for _, f := range r.findings {
			if r.snap.LineOf(f.Span.Start) == m.target {
				r.fail(m, "unexpected finding %s: %s", f.Code, f.Message)
			}
		}
	case "fix":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		var titles []string
		for _, f := range r.findings {
			if !holds(f.Span, sp.Start) {
				continue
			}
			for _, fix := range f.Fixes {
				if strings.Contains(fix.Title, m.args[1].text) {
					r.record(m, fix.Title+"\n"+r.changes(fix.Edits))
					return
				}
				titles = append(titles, fix.Title)
			}
		}
		r.fail(m, "no quick fix titled %q at %s; there are %q", m.args[1].text, r.pos(sp.Start), titles)
	case "refactor":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		actions := r.features.CodeActions(ctx, r.snap, r.cfg, Span{sp.Start, sp.Start})
		var titles []string
		for _, a := range actions {
			titles = append(titles, a.Kind+": "+a.Title)
		}
		for _, a := range actions {
			if strings.Contains(a.Title, m.args[1].text) {
				r.record(m, a.Kind+": "+a.Title+"\n"+r.changes(a.Edits)+"offered:\n\t"+strings.Join(titles, "\n\t"))
				return
			}
		}
		r.fail(m, "no code action titled %q at %s; there are %q", m.args[1].text, r.pos(sp.Start), titles)
	case "complete":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		items := r.features.Completion(ctx, r.snap, r.cfg, sp.Start)
		var b strings.Builder
		labels := map[string]bool{}
		for _, it := range items {
			labels[it.Label] = true
			fmt.Fprintf(&b, "%s (%d) %s", it.Label, it.Kind, it.Detail)
			if it.Insert != "" && it.Insert != it.Label {
				fmt.Fprintf(&b, " inserts %q", it.Insert)
			}
			fmt.Fprintf(&b, " replacing %q\n", r.f.text[it.Replace.Start:it.Replace.End])
		}
		for _, want := range m.args[1:] {
			if !labels[want.text] {
				r.fail(m, "%q is not proposed", want.text)
			}
		}
		if len(items) == 0 {
			b.WriteString("(no completions)\n")
		}
		r.record(m, b.String())
	case "signature", "nosignature":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		sig, ok := r.features.SignatureHelp(ctx, r.snap, r.cfg, sp.Start)
		if m.name == "nosignature" {
			if ok {
				r.fail(m, "signature help %q where none was expected", sig.Label)
			}
			return
		}
		if !ok {
			r.fail(m, "no signature help at %s", r.pos(sp.Start))
			return
		}
		if !strings.HasPrefix(sig.Label, m.args[1].text+"(") {
			r.fail(m, "signature %q is not of %s", sig.Label, m.args[1].text)
		}
		if want, _ := strconv.Atoi(m.args[2].text); sig.Active != want {
			r.fail(m, "active parameter %d, want %d", sig.Active, want)
		}
		r.record(m, fmt.Sprintf("%s\nparams %q\nactive %d\n%s", sig.Label, sig.Params, sig.Active, sig.Doc))
	case "def":
		sp, ok := r.loc(m, 0)
		want, ok2 := r.loc(m, 1)
		if !ok || !ok2 {
			return
		}
		defs := r.features.Definition(ctx, r.snap, sp.Start)
		var b strings.Builder
		for _, d := range defs {
			b.WriteString(r.span(d) + "\n")
		}
		if len(defs) != 1 || defs[0] != want {
			r.fail(m, "definition %q, want %s", b.String(), r.span(want))
		}
		r.record(m, b.String())
	case "refs":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		var want []string
		for i := range m.args[1:] {
			w, ok := r.loc(m, i+1)
			if !ok {
				return
			}
			want = append(want, r.span(w))
		}
		var got []string
		for _, s := range r.features.References(ctx, r.snap, sp.Start, true) {
			got = append(got, r.span(s))
		}
		sort.Strings(want)
		sorted := append([]string(nil), got...)
		sort.Strings(sorted)
		if strings.Join(want, "\n") != strings.Join(sorted, "\n") {
			r.fail(m, "references %q, want %q", sorted, want)
		}
		r.record(m, strings.Join(got, "\n"))
	case "rename":
		sp, ok := r.loc(m, 0)
		if !ok {
			return
		}
		edits, err := r.features.Rename(ctx, r.snap, sp.Start, m.args[1].text)
		if err != nil {
			r.record(m, "error: "+err.Error())
			return
		}
		r.record(m, r.changes(edits))
	case "inlay":
		line := r.snap.LineSpan(m.target)
		var b strings.Builder
		for _, h := range r.features.InlayHints(ctx, r.snap, r.cfg, line) {
			if h.Offset < line.Start || h.Offset > line.End {
				continue
			}
			fmt.Fprintf(&b, "%s %q parameter=%v\n", r.pos(h.Offset), h.Label, h.Parameter)
		}
		if b.Len() == 0 {
			b.WriteString("(no hints)\n")
		}
		r.record(m, b.String())
	case "tokens":
		line := r.snap.LineSpan(m.target)
		var b strings.Builder
		for _, tok := range r.features.SemanticTokens(ctx, r.snap) {
			if tok.Span.Start < line.Start || tok.Span.Start > line.End {
				continue
			}
			fmt.Fprintf(&b, "%s %s", r.span(tok.Span), tokenTypeNames[tok.Type])
			for i, name := range tokenModifierNames {
				if tok.Modifiers&(1<<i) != 0 {
					b.WriteString(" " + name)
				}
			}
			b.WriteString("\n")
		}
		if b.Len() == 0 {
			b.WriteString("(no tokens)\n")
		}
		r.record(m, b.String())
	case "symbols":
		var b strings.Builder
		var walk func(syms []Symbol, indent string)
		walk = func(syms []Symbol, indent string) {
			for _, s := range syms {
				fmt.Fprintf(&b, "%s%s (%d) %s name %s: %s\n", indent, s.Name, s.Kind, r.pos(s.Span.Start)+"-"+r.pos(s.Span.End), r.span(s.NameSpan), s.Detail)
				walk(s.Children, indent+"\t")
			}
		}
		walk(r.features.Symbols(ctx, r.snap), "")
		r.record(m, b.String())
	case "format":
		r.record(m, r.changes(r.features.Format(ctx, r.snap, r.cfg)))
	default:
		r.fail(m, "unknown marker")
	}
}

// checkTokens holds every semantic token list to the protocol's rules:
// ordered, not overlapping, each on one line.
func (r *markerRun) checkTokens() {
	prev := -1
	for _, tok := range r.features.SemanticTokens(context.Background(), r.snap) {
		if tok.Span.Start < prev || tok.Span.End <= tok.Span.Start || r.snap.LineOf(tok.Span.Start) != r.snap.LineOf(tok.Span.End) {
			r.failures = append(r.failures, fmt.Sprintf("%s: token %s out of order, empty, overlapping or spanning lines", r.f.name, r.span(tok.Span)))
		}
		prev = tok.Span.End
	}
}

func TestMarkers(t *testing.T) {
	entries, err := os.ReadDir(markerDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || KindOf(name, "") == KindUnknown {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) { runMarkerFile(t, name) })
	}
	if n == 0 {
		t.Fatalf("no marked sources in %s", markerDir)
	}
}

func runMarkerFile(t *testing.T, name string) {
	failures, err := checkMarkerFile(markerDir, name, *updateGoldens)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range failures {
		t.Error(msg)
	}
}

// checkMarkerFile runs the markers of dir/name and compares their output
// with dir/name.golden (or rewrites it, when update is set); each failure
// names the file and line of the marker. err is set when the test cannot
// run at all (an unreadable file, a malformed marker or golden).
func checkMarkerFile(dir, name string, update bool) (failures []string, err error) {
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	f, err := parseMarkedFile(name, string(src))
	if err != nil {
		return nil, err
	}
	cfg := DefaultConfig()
	cfg.TableCap = 8 // tables as the editor shows them, small enough to read in a golden
	r := &markerRun{f: f, features: NewAnalyzed(), cfg: cfg, claimed: map[int]bool{}, got: map[string]string{}}
	r.snap = NewSnapshot("file:///markers/"+name, 1, f.kind, f.blanked)
	r.findings = r.features.Analyze(context.Background(), r.snap, r.cfg)
	sort.SliceStable(r.findings, func(i, j int) bool { return r.findings[i].Span.Start < r.findings[j].Span.Start })
	for _, m := range f.markers {
		r.run(m)
	}
	for i, fd := range r.findings {
		if !r.claimed[i] {
			r.failures = append(r.failures, fmt.Sprintf("%s:%d: a finding no @diag expects: %s", name, r.snap.LineOf(fd.Span.Start)+1, r.finding(fd)))
		}
	}
	r.checkTokens()
	failures = r.failures

	goldenPath := filepath.Join(dir, name+".golden")
	if update {
		return failures, os.WriteFile(goldenPath, []byte(writeSections(r.order, r.got)), 0o644)
	}
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		return nil, fmt.Errorf("%v (run go test ./lsp -run Marker -update)", err)
	}
	want, wantOrder, err := readSections(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", goldenPath, err)
	}
	lineOf := map[string]int{}
	for _, m := range f.markers {
		lineOf[m.header()] = m.line + 1
	}
	for _, h := range r.order {
		w, ok := want[h]
		line := lineOf[strings.SplitN(h, " #", 2)[0]]
		if !ok {
			failures = append(failures, fmt.Sprintf("%s:%d: no golden section %q (run with -update)", name, line, h))
			continue
		}
		if w != r.got[h] {
			failures = append(failures, fmt.Sprintf("%s:%d: %s: output differs from the golden (- want, + got):\n%s", name, line, h, textDiff(w, r.got[h])))
		}
	}
	for _, h := range wantOrder {
		if _, ok := r.got[h]; !ok {
			failures = append(failures, fmt.Sprintf("%s: golden section %q has no marker (run with -update)", goldenPath, h))
		}
	}
	return failures, nil
}

// The golden files are sections, each a header line "-- NAME --" and the
// lines after it up to the next header.

func writeSections(order []string, sections map[string]string) string {
	var b strings.Builder
	for _, h := range order {
		fmt.Fprintf(&b, "-- %s --\n%s", h, sections[h])
	}
	return b.String()
}

func readSections(data string) (map[string]string, []string, error) {
	sections := map[string]string{}
	var order []string
	cur := ""
	var body strings.Builder
	flush := func() {
		if cur != "" {
			sections[cur] = body.String()
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if line == "" {
			continue
		}
		trimmed := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) >= 6 {
			flush()
			cur = trimmed[3 : len(trimmed)-3]
			if _, dup := sections[cur]; dup {
				return nil, nil, fmt.Errorf("section %q twice", cur)
			}
			order = append(order, cur)
			continue
		}
		if cur == "" {
			return nil, nil, fmt.Errorf("text before the first section: %q", line)
		}
		body.WriteString(line)
	}
	flush()
	return sections, order, nil
}

// The harness's own pieces, tested so that a golden can trust them.
func TestMarkerSections(t *testing.T) {
	order := []string{"1: @hover(\"A\")", "2: @format"}
	in := map[string]string{order[0]: "span 1:1\n```cute\n8:1\n```\n", order[1]: "(no change)\n"}
	out, gotOrder, err := readSections(writeSections(order, in))
	if err != nil || len(out) != 2 || out[order[0]] != in[order[0]] || out[order[1]] != in[order[1]] || gotOrder[1] != order[1] {
		t.Fatalf("round trip = %q, %q, %v", out, gotOrder, err)
	}
	if _, _, err := readSections("stray\n-- a --\n"); err == nil {
		t.Error("text before the first section was accepted")
	}
}

func TestMarkerParsing(t *testing.T) {
	src := "A = (4,8):(1,4)  # @hover(\"A\") @loc(def, re\"(A) =\")\n# @diag(\"(4,8)\", \"x\", \"y\") ü\nB = A # e-mail a@b.c 1@0\n"
	f, err := parseMarkedFile("t.cute", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.markers) != 3 {
		t.Fatalf("markers = %d, want 3", len(f.markers))
	}
	if f.markers[2].target != 0 || f.markers[0].target != 0 {
		t.Errorf("targets = %d, %d, want 0, 0", f.markers[0].target, f.markers[2].target)
	}
	if sp := f.locs["def"]; sp != (Span{0, 1}) {
		t.Errorf("@loc(def) = %v, want {0 1}", sp)
	}
	if _, err := parseMarkedFile("t.cute", "A = 1 # @diag(\"A\")\n"); err == nil {
		t.Error("a marker with too few arguments was accepted")
	}
	if _, err := parseMarkedFile("t.cute", "# @hover(\"A\")\n"); err == nil {
		t.Error("a marker with no line to apply to was accepted")
	}
	host, err := parseMarkedFile("t.cu", "// (4,8):(1,4) @hover(\"(4,8)\")\n")
	if err != nil || host.blanked != "// (4,8):(1,4) "+strings.Repeat(" ", len(`@hover("(4,8)")`))+"\n" {
		t.Errorf("blanked host text = %q, %v", host.blanked, err)
	}
	if d := lineChanges("a\nb\nc", "a\nB\nc"); d != "-2: b\n+2: B\n" {
		t.Errorf("lineChanges = %q", d)
	}
}

// markerExemptCodes are the finding codes no source can show, and why.
var markerExemptCodes = map[string]string{
	analysis.CodeZeroDenominator: "the parser rejects 1/0@d first (a syntax finding, in diagnostics.cute); only a hand-built AST reaches the binder's check",
	analysis.CodeNoValue:         "a use of a name whose definition failed is not reported again; hover shows it (diagnostics.cute)",
}

// Every finding code is expected by some @diag of the marker sources.
func TestMarkersCoverEveryCode(t *testing.T) {
	entries, err := os.ReadDir(markerDir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if KindOf(e.Name(), "") == KindUnknown {
			continue
		}
		src, err := os.ReadFile(filepath.Join(markerDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		f, err := parseMarkedFile(e.Name(), string(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range f.markers {
			if m.name == "diag" {
				seen[m.args[1].text] = true
			}
		}
	}
	for _, c := range analysis.Codes {
		if _, exempt := markerExemptCodes[c.Code]; !exempt && !seen[c.Code] {
			t.Errorf("no @diag marker expects a %s finding (%s): add a source line that raises it, with its @diag, to a file of %s (see its README.md) and run go test ./lsp -run Marker -update; or, if no source can raise it, say why in markerExemptCodes", c.Code, c.Summary, markerDir)
		}
	}
}

// A marker whose expectation fails says where and how: the file and line of
// the marker, and a diff of the golden against the output.
func TestMarkerFailuresNameTheLine(t *testing.T) {
	dir := t.TempDir()
	src := "tile = (4,8):(1,4)\n# @hover(\"tile\") @diag(\"tile\", \"syntax\", \"\")\nx = (4,2):(1,(2,3))\n"
	if err := os.WriteFile(filepath.Join(dir, "t.cute"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := checkMarkerFile(dir, "t.cute", true); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join(dir, "t.cute.golden")
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(string(data), "(4,8):(1,4)", "(4,8):(1,5)", 1)
	if err := os.WriteFile(golden, []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	failures, err := checkMarkerFile(dir, "t.cute", false)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(failures, "\n")
	for _, want := range []string{
		`t.cute:2: @diag("tile", "syntax", ""): no syntax finding at 1:1`,
		"t.cute:3: a finding no @diag expects: error incongruent",
		`t.cute:2: 1: @hover("tile"): output differs from the golden (- want, + got)`,
		"\t- (4,8):(1,5)\n\t+ (4,8):(1,4)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("failures do not contain %q:\n%s", want, all)
		}
	}
}
