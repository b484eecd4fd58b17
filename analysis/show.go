package analysis

import (
	"unicode/utf8"

	"github.com/cute-lsp/cute-lsp/layout"
)

// How much of a value each place shows, in bytes. A value may hold a
// million leaves (layout.MaxLeaves); every text that shows one shows a
// prefix and says how much it left out, so that a hover, a symbol list or
// a message costs what it shows, not what the value holds.
const (
	// ShowHoverBytes bounds the value in a hover and in `cute-lsp eval`.
	ShowHoverBytes = 4096
	// ShowDetailBytes bounds a value in a one-line detail: a document
	// symbol, a completion item, a code action title, a message.
	ShowDetailBytes = 200
	// maxEditBytes bounds the text of an edit. An edit cannot be cut, so a
	// value longer than this is not offered as an edit at all.
	maxEditBytes = 64 << 10
	// maxMessageBytes bounds a finding's message, whatever built it.
	maxMessageBytes = 2048
)

// Show is v's text (as v.String() prints it) cut to about maxBytes, with
// the number of leaves not shown said at its end.
func Show(v layout.Value, maxBytes int) string {
	return layout.FormatLimited(v, false, maxBytes).String()
}

// ShowStatic is Show with CuTe's static marks (_8), as its print() shows them.
func ShowStatic(v layout.Value, maxBytes int) string {
	return layout.FormatLimited(v, true, maxBytes).String()
}

// shown is a value in a message: fmt prints it cut to ShowDetailBytes.
type shown struct{ v layout.Value }

func (s shown) String() string { return Show(s.v, ShowDetailBytes) }

// editText is v's whole text for an edit; ok is false when it is longer
// than maxEditBytes.
func editText(v layout.Value, static bool) (string, bool) {
	s := layout.FormatLimited(v, static, maxEditBytes)
	return s.Text, !s.Cut
}

// capMessage cuts a message built elsewhere (the algebra's errors name
// their operands) to maxMessageBytes, saying how much it left out.
func CapMessage(msg string) string {
	if len(msg) <= maxMessageBytes {
		return msg
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "... (" + groupThousands(int64(len(msg))) + " characters; " + groupThousands(int64(len(msg)-cut)) + " not shown)"
}

// truncateUTF8 is s cut to at most n bytes, at a character boundary.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
