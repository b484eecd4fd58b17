package lsp

import (
	"slices"
	"strconv"

	"github.com/cute-lsp/cute-lsp/analysis"
	"go.lsp.dev/protocol"
)

// appendPublishDiagnostics appends the params of the publishDiagnostics of
// snap's findings: the bytes protocol's encoder writes for
//
//	&protocol.PublishDiagnosticsParams{URI: snap.URI, Version: snap.Version,
//		Diagnostics: toDiagnostics(snap, enc, findings)}
//
// (TestAppendPublishDiagnostics), written straight from the findings. A
// sheet's first diagnostics are part of opening it, which the client
// times: 1,006 diagnostics (231 KB) for the 5,000-line peer sheet, where
// the diagnostics as protocol values cost a 250 KB slice and its sort on
// the way.
func appendPublishDiagnostics(dst []byte, snap *Snapshot, enc Encoding, findings []analysis.Finding) []byte {
	dst = append(dst, `{"uri":`...)
	dst = appendJSONString(dst, snap.URI)
	dst = append(dst, `,"version":`...)
	dst = strconv.AppendInt(dst, int64(snap.Version), 10)
	dst = append(dst, `,"diagnostics":[`...)
	// Ordered by start, as toDiagnostics orders them.
	placed := make([]placedFinding, len(findings))
	lines := lineCursor{snap: snap}
	for i := range findings {
		r := findings[i].Range
		placed[i] = placedFinding{lines.position(int(r.Pos.Offset), enc), lines.position(int(r.End.Offset), enc), &findings[i]}
	}
	byStart := func(a, b placedFinding) int {
		if a.start.Line != b.start.Line {
			return a.start.Line - b.start.Line
		}
		return a.start.Character - b.start.Character
	}
	if !slices.IsSortedFunc(placed, byStart) {
		slices.SortStableFunc(placed, byStart)
	}
	for i, p := range placed {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendDiagnostic(dst, snap, enc, p, &lines)
	}
	return append(dst, "]}"...)
}

// lineCursor is Snapshot.Position for offsets that mostly come in order
// (the findings' ranges, sorted by start): the line of the offset before
// is where the search for the next one starts, a few lines on at most,
// rather than a search of the whole line table, whose probes miss the
// processor's caches in a long document (200,000 lines: 1.6 MB).
type lineCursor struct {
	snap *Snapshot
	line int
}

func (c *lineCursor) position(off int, enc Encoding) Position {
	s := c.snap
	off = max(0, min(off, len(s.Text)))
	line := c.line
	switch {
	case line >= len(s.lineStarts) || s.lineStarts[line] > off:
		line = s.lineFrom(0, off)
	default:
		for step := 0; line+1 < len(s.lineStarts) && s.lineStarts[line+1] <= off; step++ {
			if step == 4 {
				line = s.lineFrom(line, off)
				break
			}
			line++
		}
	}
	c.line = line
	return s.positionOnLine(off, line, enc)
}

// placedFinding is a finding with the positions of its range.
type placedFinding struct {
	start, end Position
	f          *analysis.Finding
}

// appendDiagnostic appends the diagnostic toDiagnostic makes of p.f, as
// protocol's encoder writes it.
func appendDiagnostic(dst []byte, snap *Snapshot, enc Encoding, p placedFinding, lines *lineCursor) []byte {
	f := p.f
	dst = append(dst, `{"range":`...)
	dst = appendRange(dst, p.start, p.end)
	if sev := diagnosticSeverity[f.Severity]; sev != 0 {
		dst = append(dst, `,"severity":`...)
		dst = strconv.AppendUint(dst, uint64(sev), 10)
	}
	if f.Code != "" {
		dst = append(dst, `,"code":`...)
		dst = appendJSONString(dst, f.Code)
	}
	dst = append(dst, `,"source":"cute-lsp","message":`...)
	dst = appendJSONString(dst, f.Message)
	for i, r := range f.Related {
		if i == 0 {
			dst = append(dst, `,"relatedInformation":[`...)
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"location":{"uri":`...)
		dst = appendJSONString(dst, snap.URI)
		dst = append(dst, `,"range":`...)
		dst = appendRange(dst, lines.position(int(r.Range.Pos.Offset), enc), lines.position(int(r.Range.End.Offset), enc))
		dst = append(dst, `},"message":`...)
		dst = appendJSONString(dst, r.Message)
		dst = append(dst, '}')
	}
	if len(f.Related) > 0 {
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendRange appends an LSP range as protocol's encoder writes it (its
// numbers as uint32s, as toPosition converts them).
func appendRange(dst []byte, start, end Position) []byte {
	dst = append(dst, `{"start":{"line":`...)
	dst = strconv.AppendUint(dst, uint64(uint32(start.Line)), 10)
	dst = append(dst, `,"character":`...)
	dst = strconv.AppendUint(dst, uint64(uint32(start.Character)), 10)
	dst = append(dst, `},"end":{"line":`...)
	dst = strconv.AppendUint(dst, uint64(uint32(end.Line)), 10)
	dst = append(dst, `,"character":`...)
	dst = strconv.AppendUint(dst, uint64(uint32(end.Character)), 10)
	return append(dst, "}}"...)
}

// appendJSONString appends s quoted as protocol's encoder quotes it:
// printable ASCII without quotes or backslashes as it is, anything else
// by protocol itself.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			dst, _ = protocol.AppendMarshal(dst, protocol.String(s))
			return dst
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
