package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	render "github.com/cute-lsp/cute-lsp/hover"
	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentHover] = hover
}

// at resolves a document and a position to its snapshot and byte offset;
// snap is nil when the document is neither open nor on disk.
func (s *Server) at(doc protocol.TextDocumentIdentifier, pos protocol.Position) (snap *Snapshot, off int, enc Encoding, cfg Config) {
	enc, cfg, _ = s.session()
	snap = s.snapshot(string(doc.URI))
	if snap == nil {
		return nil, 0, enc, cfg
	}
	cfg = withProject(cfg, s.projectConfig(snap.URI))
	return snap, snap.Offset(fromPosition(pos), enc), enc, cfg
}

func hover(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.HoverParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, enc, cfg := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return nil, nil
	}
	var h *protocol.Hover
	valueSnap, valueOff := snap, off // where the value lies: a notebook cell's is in its notebook's program
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		h = cell.hover(ctx, s.features, enc, cfg, off)
		valueSnap, valueOff = cell.joined, off+cell.byteBase
	} else {
		h = hoverAt(ctx, s.features, snap, enc, cfg, off)
	}
	if h == nil {
		return nil, nil
	}
	if link := pictureLink(ctx, s, valueSnap, valueOff, p.TextDocument, p.Position); link != "" {
		h.Contents.(*protocol.MarkupContent).Value += link
	}
	return h, nil
}

// hoverAt renders the value at off, or is nil when there is none: in a
// sheet, what the innermost name, call or literal there evaluates to (on an
// assert's keyword or relation, whether it holds); in a host file, the
// descriptor there, else the CuTe code value there.
//
// A cancelled hover stops before it renders (tables of large layouts are
// the costly part), and renderings take turns (Analyzed.renderTurn).
func hoverAt(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, cfg Config, off int) *protocol.Hover {
	markdown := func(sp Span, md string) *protocol.Hover {
		r := toRange(snap, enc, sp)
		return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &r}
	}
	if s := a.sheet(ctx, snap); s != nil {
		release, ok := a.renderTurn(ctx)
		if !ok {
			return nil
		}
		defer release()
		if sp, md, ok := assertHover(s, off); ok {
			return markdown(sp, md)
		}
		t, ok := s.TargetAt(off)
		if !ok {
			return nil
		}
		return markdown(spanOf(t.Range), render.Target(t, hoverOptions(cfg)))
	}
	if h := a.host(ctx, snap); h != nil {
		release, ok := a.renderTurn(ctx)
		if !ok {
			return nil
		}
		defer release()
		for _, d := range h.Descriptors {
			sp := spanOf(d.Range)
			if !sp.Contains(off) {
				continue
			}
			if d.Err != nil {
				return markdown(sp, "**error:** "+d.Err.Error())
			}
			if d.Value == nil {
				return nil
			}
			return markdown(sp, render.Descriptor(d.Node, d.Value, hoverOptions(cfg)))
		}
		if ch, ok := h.Code().HoverAt(off); ok {
			return markdown(Span{ch.Start, ch.End}, render.Code(ch, hoverOptions(cfg)))
		}
	}
	return nil
}

// hoverOptions are the rendering options the configuration sets.
func hoverOptions(cfg Config) render.Options {
	opts := render.DefaultOptions
	if cfg.TableCap > 0 {
		opts.Limits.MaxRows, opts.Limits.MaxCols = cfg.TableCap, cfg.TableCap
	}
	if e, ok := render.ElementNamed(cfg.DefaultElementType); ok {
		opts.Element = e
	}
	if cfg.Arch != "" {
		opts.Arch = cfg.Arch
	}
	return opts
}

// assertHover tells, on an assert's keyword or relation, whether it holds
// and what its two sides are; sp is the whole assert.
func assertHover(s *analysis.Sheet, off int) (sp Span, md string, ok bool) {
	i := s.StatementAt(off)
	if i < 0 {
		return Span{}, "", false
	}
	as, ok := s.File.Statements[i].(*grammar.Assert)
	if !ok {
		return Span{}, "", false
	}
	base := s.File.Base(i)
	keyword := Span{base.Offset + int(as.Pos.Offset), base.Offset + int(as.Pos.Offset) + len("assert")}
	relation := spanOf(base.Range(as.OpRange))
	if !keyword.Contains(off) && !relation.Contains(off) {
		return Span{}, "", false
	}
	env := s.EnvAt(i)
	side := func(n grammar.Node) string {
		v, err := analysis.Eval(n, env)
		if err != nil {
			return "(error)"
		}
		return "`" + analysis.Show(v, analysis.ShowHoverBytes) + "`"
	}
	verdict := "holds"
	if err := s.Results[i].Err; err != nil {
		verdict = "fails: " + strings.TrimPrefix(analysis.CapMessage(err.Error()), "assert failed: ")
	}
	meaning := "the same function (equal size and offsets)"
	if as.Op == grammar.AssertIs {
		meaning = "the same representation (shape and stride trees)"
	}
	md = fmt.Sprintf("**assert** %s\n\nleft: %s\n\nright: %s\n\n`%s` asks for %s\n", verdict, side(as.Left), side(as.Right), as.Op, meaning)
	return spanOf(base.Range(as.Range)), md, true
}
