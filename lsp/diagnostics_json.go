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
	for i := range findings {
		r := findings[i].Range
		placed[i] = placedFinding{snap.Position(int(r.Pos.Offset), enc), snap.Position(int(r.End.Offset), enc), &findings[i]}
	}
	slices.SortStableFunc(placed, func(a, b placedFinding) int {
		if a.start.Line != b.start.Line {
			return a.start.Line - b.start.Line
		}
		return a.start.Character - b.start.Character
	})
	for i, p := range placed {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendDiagnostic(dst, snap, enc, p)
	}
	return append(dst, "]}"...)
}

// placedFinding is a finding with the positions of its range.
type placedFinding struct {
	start, end Position
	f          *analysis.Finding
}

// appendDiagnostic appends the diagnostic toDiagnostic makes of p.f, as
// protocol's encoder writes it.
func appendDiagnostic(dst []byte, snap *Snapshot, enc Encoding, p placedFinding) []byte {
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
		dst = appendRange(dst, snap.Position(int(r.Range.Pos.Offset), enc), snap.Position(int(r.Range.End.Offset), enc))
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
