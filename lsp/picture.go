package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/picture"
	"github.com/cute-lsp/cute-lsp/tiled"
	"github.com/cute-lsp/cute-lsp/tirx"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// PictureCommand is the workspace/executeCommand command that answers the
// interactive HTML page (picture.WriteHTML) of the value at a position:
// arguments [document URI, {line, character}] in the session's position
// encoding; the result is the page as one string.
const PictureCommand = "cute.picture"

// ShowPictureCommand is the editor's own command that hover's "Show
// picture" link runs (editors/vscode registers it): it asks the server for
// PictureCommand and shows the page. Its arguments are PictureCommand's.
const ShowPictureCommand = "cute.showPicture"

// MaxPictureCells bounds the pages the server sends: 1024x1024 cells, about
// 8 MB of page, a quarter of what cute-lsp html draws to a file, so that one
// request cannot hold the connection for long.
const MaxPictureCells = 1 << 20

func init() {
	requestHandlers[protocol.MethodWorkspaceExecuteCommand] = executeCommand
}

// valueAt is the value hover describes at off: in a sheet the innermost
// name, call or literal there; in a host file the descriptor, else the CuTe
// code value there. found is false when nothing with a value is there; err
// is the value's evaluation error.
func valueAt(ctx context.Context, a *Analyzed, snap *Snapshot, off int) (v layout.Value, found bool, err error) {
	if s := a.sheet(ctx, snap); s != nil {
		t, ok := s.TargetAt(off)
		if !ok {
			return nil, false, nil
		}
		return t.Value, true, t.Err
	}
	if h := a.host(ctx, snap); h != nil {
		for _, d := range h.Descriptors {
			if spanOf(d.Range).Contains(off) {
				return d.Value, d.Value != nil || d.Err != nil, d.Err
			}
		}
		if cv, ok := h.Code().At(off); ok {
			return cv.Value, cv.Value != nil, nil
		}
	}
	return nil, false, nil
}

func executeCommand(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.ExecuteCommandParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Command != PictureCommand {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q: this server runs %s", p.Command, PictureCommand)
	}
	doc, pos, err := pictureArguments(p.Arguments)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	snap, off, _, _ := s.at(doc, pos)
	if snap == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no document %s", doc.URI)
	}
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		snap, off = cell.joined, off+cell.byteBase
	}
	v, found, err := valueAt(ctx, s.features, snap, off)
	switch {
	case err != nil:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no picture: the value at %d:%d does not evaluate: %v", pos.Line+1, pos.Character+1, err)
	case !found || v == nil:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no picture: nothing with a value at %d:%d (put the cursor on a layout, a binding's name or a call)", pos.Line+1, pos.Character+1)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, err := pictureGrid(v)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no picture of %s: %v", shortValue(v), err)
	}
	if n := g.Cells(); n > MaxPictureCells {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no picture of %s: %d cells; the editor shows at most %d (1024x1024): run cute-lsp html for up to %d, or draw a slice (slice((_,_,0), L), or a tile with logical_divide)",
			shortValue(v), n, MaxPictureCells, picture.MaxHTMLCells)
	}
	var b bytes.Buffer
	if err := g.WriteHTML(&b); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no picture of %s: %v", shortValue(v), err)
	}
	return b.String(), nil
}

// pictureArguments reads [uri, {line, character}].
func pictureArguments(args []protocol.LSPAny) (protocol.TextDocumentIdentifier, protocol.Position, error) {
	const want = "want the arguments [document URI, {\"line\": L, \"character\": C}]"
	var doc protocol.TextDocumentIdentifier
	var pos protocol.Position
	if len(args) != 2 {
		return doc, pos, fmt.Errorf("%s: %s, got %d arguments", PictureCommand, want, len(args))
	}
	var u string
	if err := json.Unmarshal(args[0], &u); err != nil || u == "" {
		return doc, pos, fmt.Errorf("%s: %s; the first is not a URI string", PictureCommand, want)
	}
	var p struct {
		Line      *int64 `json:"line"`
		Character *int64 `json:"character"`
	}
	if err := json.Unmarshal(args[1], &p); err != nil || p.Line == nil || p.Character == nil || *p.Line < 0 || *p.Character < 0 || *p.Line > 1<<31 || *p.Character > 1<<31 {
		return doc, pos, fmt.Errorf("%s: %s; the second is not a position", PictureCommand, want)
	}
	doc.URI = uri.URI(u)
	pos.Line, pos.Character = uint32(*p.Line), uint32(*p.Character)
	return doc, pos, nil
}

// pictureGrid is the picture of a value, as cute-lsp html draws it without
// options: offsets of a layout, a bank_conflicts(...) access's phase, the
// owners of a TIRx layout, and the thread-value layouts of an MMA atom
// (A, B, C), a TiledMMA and a TiledCopy side by side.
func pictureGrid(v layout.Value) (*picture.Grid, error) {
	if a, ok := v.(analysis.Annotated); ok {
		v = a.Plain()
	}
	switch v := v.(type) {
	case analysis.BankValue:
		return picture.FromAccess(v.Access, v.Report, -1)
	case tirx.Layout:
		return picture.FromTIRx(v, nil)
	case tiled.TiledMMA:
		return picture.FromTiledMMA(v)
	case tiled.TiledCopy:
		return picture.FromTiledCopy(v)
	case analysis.AtomValue:
		if v.MMA == nil {
			return nil, fmt.Errorf("a copy atom alone has no tile: draw make_tiled_copy(%s, thr, val)", v)
		}
		mnk := v.MMA.ShapeMNK
		M, N, K := mnk.At(0).Value(), mnk.At(1).Value(), mnk.At(2).Value()
		return picture.FromTVOperands(v.String(), []picture.TVOperand{
			{Name: "A", RowName: "m", ColName: "k", TV: v.MMA.ALayout, M: M, N: K},
			{Name: "B", RowName: "n", ColName: "k", TV: v.MMA.BLayout, M: N, N: K},
			{Name: "C", RowName: "m", ColName: "n", TV: v.MMA.CLayout, M: M, N: N},
		})
	}
	return picture.FromLayout(v)
}

// hasPicture tells whether hover offers a picture of v: layouts and the
// values drawn from them, not plain integers or tuples (every number of a
// sheet would get a link).
func hasPicture(v layout.Value) bool {
	if a, ok := v.(analysis.Annotated); ok {
		v = a.Plain()
	}
	switch v := v.(type) {
	case *layout.Layout:
		return drawable(v.Shape)
	case layout.Composed:
		return drawable(v.Inner.Shape)
	case layout.NestedComposed:
		return drawable(v.Inner.Inner.Shape)
	case analysis.BankValue, tirx.Layout, tiled.TiledMMA, tiled.TiledCopy:
		return true
	case analysis.AtomValue:
		return v.MMA != nil
	}
	return false
}

// drawable tells whether a layout of this shape fits the editor's pictures,
// so that hover does not offer one the command would refuse.
func drawable(shape layout.IntTuple) bool {
	n, err := layout.Size(shape)
	return err == nil && n > 0 && n <= MaxPictureCells
}

// shortValue is v as an error message quotes it, cut to 120 bytes.
func shortValue(v layout.Value) string {
	s := v.String()
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// pictureLink is hover's markdown link that runs ShowPictureCommand on the
// value at pos, or "" when there is no picture of it. VS Code runs a
// command: link when the hover is trusted (editors/vscode trusts the
// server's markdown); other clients show the link text.
func pictureLink(ctx context.Context, s *Server, snap *Snapshot, off int, doc protocol.TextDocumentIdentifier, pos protocol.Position) string {
	s.mu.Lock()
	links := s.pictureLinks
	s.mu.Unlock()
	if !links {
		return ""
	}
	v, found, err := valueAt(ctx, s.features, snap, off)
	if !found || err != nil || v == nil || !hasPicture(v) {
		return ""
	}
	args, err := json.Marshal([]any{string(doc.URI), map[string]uint32{"line": pos.Line, "character": pos.Character}})
	if err != nil {
		return ""
	}
	return "\n\n[Show picture](command:" + ShowPictureCommand + "?" + strings.ReplaceAll(url.QueryEscape(string(args)), "+", "%20") + ` "Open the interactive picture of this value beside the editor")`
}
