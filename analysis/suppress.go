package analysis

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/internal/editdist"
)

// Suppression comments let a project silence a finding it has judged, in
// lint and in the editor alike, without a configuration file:
//
//	x = (4,2):(1,1)   # cute-lsp: ignore[non-compact]
//	// cute-lsp: ignore[precondition,unknown-value]
//	auto t = logical_divide(a, b);      // the line below a comment of its own
//	# cute-lsp: ignore-file[coalescible]
//
// "ignore" without a list silences every code. A directive on a line with
// code applies to that line; alone on its line, to that line (a comment may
// hold a descriptor) and the next line that is not blank or a comment. "ignore-file" applies to the whole file wherever
// it is written. The directive must stand in a comment (after //, /*, # or
// ;), so a string that merely mentions it changes nothing.
const suppressionMarker = "cute-lsp:"

// suppressions is what a file's directives silence: codes per 0-based line,
// and codes for the whole file; a nil code set means every code.
type suppressions struct {
	lines map[int]codeSet
	file  codeSet
	all   bool // ignore-file without a list
	// unknown are the listed codes that name no finding code, with the
	// byte range of each in the file: a typo would silence nothing.
	unknown []unknownCode
}

type unknownCode struct {
	code       string
	start, end int
}

// codeSet is a set of finding codes; every is true for a bare "ignore".
type codeSet struct {
	every bool
	codes map[string]bool
}

func (c *codeSet) add(codes []string) {
	if codes == nil {
		c.every = true
		return
	}
	if c.codes == nil {
		c.codes = map[string]bool{}
	}
	for _, code := range codes {
		c.codes[code] = true
	}
}

func (c codeSet) has(code string) bool { return c.every || c.codes[code] }

// Unsuppressed returns the findings of src that no suppression comment
// silences, in their order; findings is returned as it is when src has no
// directive.
func Unsuppressed(src []byte, findings []Finding) []Finding {
	if !hasSuppressionMarker(src) {
		return findings
	}
	s := parseSuppressions(src)
	starts := lineStarts(src)
	kept := findings[:0:0]
	for _, u := range s.unknown {
		kept = append(kept, unknownCodeFinding(src, starts, u))
	}
	for _, f := range findings {
		line := sort.SearchInts(starts, int(f.Range.Pos.Offset)+1) - 1
		if s.all || s.file.has(f.Code) {
			continue
		}
		if set, ok := s.lines[line]; ok && set.has(f.Code) {
			continue
		}
		kept = append(kept, f)
	}
	return kept
}

// markerDash is where the one '-' of suppressionMarker stands: the rarest
// of its bytes in source code (in CUTLASS's include/cute and examples/cute,
// 3,279 '-' against 146,019 'c'), so a search that jumps from '-' to '-'
// with IndexByte looks at few places.
const markerDash = len("cute")

// hasSuppressionMarker reports whether src holds suppressionMarker; it is
// bytes.Contains at the speed of bytes.IndexByte, which matters as it runs
// over every file linted (bytes.Contains stops at every 'c').
func hasSuppressionMarker(src []byte) bool {
	for i := markerDash; i < len(src); {
		j := bytes.IndexByte(src[i:], '-')
		if j < 0 {
			return false
		}
		at := i + j - markerDash
		if at+len(suppressionMarker) <= len(src) && string(src[at:at+len(suppressionMarker)]) == suppressionMarker {
			return true
		}
		i += j + 1
	}
	return false
}

// lineStarts is the byte offset of each line's first byte.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// parseSuppressions reads every directive of src.
func parseSuppressions(src []byte) suppressions {
	s := suppressions{lines: map[int]codeSet{}}
	lines := strings.Split(string(src), "\n")
	lineStart := 0
	pending := -1 // the line of a directive alone on its line, waiting for code
	var pendingCodes []codeSet
	for i, line := range lines {
		start := lineStart
		lineStart += len(line) + 1
		kind, codes, commentOnly, ok := directiveOf(line)
		trimmed := strings.TrimSpace(line)
		if !ok {
			if pending >= 0 && trimmed != "" && !isCommentLine(trimmed) {
				for _, c := range pendingCodes {
					s.addLine(i, c)
				}
				pending, pendingCodes = -1, nil
			}
			continue
		}
		s.checkCodes(line, start, codes)
		var set codeSet
		set.add(codes)
		switch {
		case kind == "ignore-file" && codes == nil:
			s.all = true
		case kind == "ignore-file":
			s.file.add(codes)
		case commentOnly:
			// The comment may hold a descriptor of its own (host files):
			// its line is silenced too.
			s.addLine(i, set)
			pending = i
			pendingCodes = append(pendingCodes, set)
		default:
			s.addLine(i, set)
		}
	}
	return s
}

func (s *suppressions) addLine(line int, c codeSet) {
	cur := s.lines[line]
	if c.every {
		cur.every = true
	}
	for code := range c.codes {
		cur.add([]string{code})
	}
	s.lines[line] = cur
}

// commentOpeners are the comment starts of the languages cute-lsp reads:
// sheets and Python (#), C++ and MLIR (// and /*), and ; for the odd
// assembly-style listing.
var commentOpeners = []string{"//", "/*", "#", ";"}

func isCommentLine(trimmed string) bool {
	for _, o := range commentOpeners {
		if strings.HasPrefix(trimmed, o) {
			return true
		}
	}
	return strings.HasPrefix(trimmed, "*") // inside a /* ... */ block
}

// directiveOf reads the directive of one line: its kind ("ignore" or
// "ignore-file"), its codes (nil for every code), and whether the line holds
// nothing but the comment. ok is false for a line without a well-formed
// directive in a comment.
func directiveOf(line string) (kind string, codes []string, commentOnly, ok bool) {
	at := strings.Index(line, suppressionMarker)
	if at < 0 {
		return "", nil, false, false
	}
	before := line[:at]
	opener := -1
	for _, o := range commentOpeners {
		if i := strings.LastIndex(before, o); i >= 0 && (opener < 0 || i < opener) {
			opener = i
		}
	}
	if opener < 0 {
		return "", nil, false, false
	}
	rest := strings.TrimSpace(line[at+len(suppressionMarker):])
	switch {
	case strings.HasPrefix(rest, "ignore-file"):
		kind, rest = "ignore-file", rest[len("ignore-file"):]
	case strings.HasPrefix(rest, "ignore"):
		kind, rest = "ignore", rest[len("ignore"):]
	default:
		return "", nil, false, false
	}
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", nil, false, false
		}
		for _, c := range strings.Split(rest[1:end], ",") {
			if c = strings.TrimSpace(c); c != "" {
				codes = append(codes, c)
			}
		}
		if codes == nil {
			return "", nil, false, false
		}
	} else if rest != "" && !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, "*/") {
		return "", nil, false, false // "ignored", "ignorance": not a directive
	}
	return kind, codes, strings.TrimSpace(before[:opener]) == "", true
}

// knownCodes is every finding code (codes.go), made on first use (a
// suppression directive): most processes read none.
var knownCodes = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, c := range Codes {
		m[c.Code] = true
	}
	return m
})

// checkCodes records the codes of a directive that name no finding code.
func (s *suppressions) checkCodes(line string, lineStart int, codes []string) {
	list := strings.Index(line, suppressionMarker)
	list += strings.IndexByte(line[list:], '[')
	for _, c := range codes {
		if knownCodes()[c] {
			continue
		}
		at := list + strings.Index(line[list:], c)
		s.unknown = append(s.unknown, unknownCode{code: c, start: lineStart + at, end: lineStart + at + len(c)})
	}
}

// unknownCodeFinding warns of a suppressed code that does not exist, with
// the nearest real code when one is close.
func unknownCodeFinding(src []byte, starts []int, u unknownCode) Finding {
	msg := "cute-lsp: ignore names the unknown finding code " + strconv.Quote(u.code) + ", so it silences nothing"
	codes := make([]string, 0, len(knownCodes()))
	for code := range knownCodes() {
		codes = append(codes, code)
	}
	best, found := editdist.Nearest(u.code, codes, 3)
	if found {
		msg += "; did you mean " + strconv.Quote(best) + "?"
	}
	f := Finding{
		Range:    grammar.Range{Pos: positionAt(src, starts, u.start), End: positionAt(src, starts, u.end)},
		Severity: SeverityWarning,
		Code:     CodeUnknownSuppression,
		Message:  msg,
	}
	if found {
		f.Fixes = []Fix{{Title: "Replace with " + best, Edits: []Edit{{Range: f.Range, NewText: best}}}}
	}
	return f
}

// positionAt is the grammar.Position of byte offset off: 1-based line, and
// 1-based column counted in runes.
func positionAt(src []byte, starts []int, off int) grammar.Position {
	line := sort.SearchInts(starts, off+1) - 1
	return grammar.Position{Offset: int32(off), Line: int32(line + 1), Column: int32(utf8.RuneCount(src[starts[line]:off]) + 1)}
}
