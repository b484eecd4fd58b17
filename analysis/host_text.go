package analysis

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// hostText is a host file's text: a string, or the []byte it was read into,
// scanned in place. Lint reads every file into a []byte it reuses, and the
// string copy that the scan took of it was a tenth of lint's CPU time (fresh
// memory for every file, page faults included); the editor's features that
// hold a string keep scanning strings. The helpers below are the strings
// and bytes functions the scan uses, for either.
type hostText interface{ string | []byte }

func indexByteIn[T hostText](s T, c byte) int {
	switch s := any(s).(type) {
	case string:
		return strings.IndexByte(s, c)
	case []byte:
		return bytes.IndexByte(s, c)
	}
	panic("unreachable")
}

func lastIndexByteIn[T hostText](s T, c byte) int {
	switch s := any(s).(type) {
	case string:
		return strings.LastIndexByte(s, c)
	case []byte:
		return bytes.LastIndexByte(s, c)
	}
	panic("unreachable")
}

func indexIn[T hostText](s T, sub string) int {
	switch s := any(s).(type) {
	case string:
		return strings.Index(s, sub)
	case []byte:
		return bytes.Index(s, []byte(sub))
	}
	panic("unreachable")
}

func hasPrefixIn[T hostText](s T, prefix string) bool {
	return len(s) >= len(prefix) && string(s[:len(prefix)]) == prefix
}

func containsAnyIn[T hostText](s T, chars string) bool {
	switch s := any(s).(type) {
	case string:
		return strings.ContainsAny(s, chars)
	case []byte:
		return bytes.ContainsAny(s, chars)
	}
	panic("unreachable")
}

// trimSpaceIn is strings.TrimSpace (Unicode's white space, as scanBody
// trims a literal) of s.
func trimSpaceIn[T hostText](s T) T {
	switch t := any(s).(type) {
	case string:
		return any(strings.TrimSpace(t)).(T)
	case []byte:
		return any(bytes.TrimSpace(t)).(T)
	}
	panic("unreachable")
}

func countNewlinesIn[T hostText](s T) int {
	switch s := any(s).(type) {
	case string:
		return strings.Count(s, "\n")
	case []byte:
		return bytes.Count(s, newline)
	}
	panic("unreachable")
}

func runeCountIn[T hostText](s T) int {
	switch s := any(s).(type) {
	case string:
		return utf8.RuneCountInString(s)
	case []byte:
		return utf8.RuneCount(s)
	}
	panic("unreachable")
}

var newline = []byte{'\n'}

// tripleQuote is a Python triple quote of c, ' or ".
func tripleQuote(c byte) string {
	if c == '\'' {
		return "'''"
	}
	return `"""`
}
