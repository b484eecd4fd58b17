package analysis

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// hostText is a host file's text: a string, or the []byte it was read into,
// scanned in place. Lint reads every file into a []byte it reuses, and the
// string copy that the scan took of it was a tenth of lint's CPU time (fresh
// memory for every file, page faults included); the editor's features that
// hold a string keep scanning strings. The helpers below are the strings
// and bytes functions the scan uses, for either.
type hostText interface{ string | []byte }

// asString is s as a string, without a copy: the string itself, or the
// bytes of a []byte (whose header starts as a string's does: data, then
// length). The helpers below hand it to the strings functions for the
// length of one call, during which the scan does not write the bytes. A
// type switch on any(s) instead cost a dictionary look-up and a call that
// is not inlined on every search: a fifth of the instructions of the
// descriptor scan's 190,000 byte searches over include/cute and
// examples/cute.
func asString[T hostText](s T) string { return *(*string)(unsafe.Pointer(&s)) }

func indexByteIn[T hostText](s T, c byte) int { return strings.IndexByte(asString(s), c) }

func lastIndexByteIn[T hostText](s T, c byte) int { return strings.LastIndexByte(asString(s), c) }

func indexIn[T hostText](s T, sub string) int { return strings.Index(asString(s), sub) }

func hasPrefixIn[T hostText](s T, prefix string) bool {
	return len(s) >= len(prefix) && string(s[:len(prefix)]) == prefix
}

func containsAnyIn[T hostText](s T, chars string) bool {
	return strings.ContainsAny(asString(s), chars)
}

func countNewlinesIn[T hostText](s T) int { return strings.Count(asString(s), "\n") }

func runeCountIn[T hostText](s T) int { return utf8.RuneCountInString(asString(s)) }

// tripleQuote is a Python triple quote of c, ' or ".
func tripleQuote(c byte) string {
	if c == '\'' {
		return "'''"
	}
	return `"""`
}
