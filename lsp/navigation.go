package lsp

import (
	"context"

	"github.com/cute-lsp/cute-lsp/analysis"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentDefinition] = definition
	requestHandlers[protocol.MethodTextDocumentReferences] = references
	requestHandlers[protocol.MethodTextDocumentRename] = rename
	requestHandlers[protocol.MethodTextDocumentPrepareRename] = prepareRename
}

func definition(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.DefinitionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, enc, _ := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return protocol.LocationSlice{}, nil
	}
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		return cell.definitions(ctx, s.features, enc, off), nil // notebook.go
	}
	return definitions(ctx, s.features, snap, enc, off), nil
}

func references(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.ReferenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, enc, _ := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return protocol.LocationSlice{}, nil
	}
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		return cell.references(ctx, s.features, enc, off, p.Context.IncludeDeclaration), nil // notebook.go
	}
	return referencesTo(ctx, s.features, snap, enc, off, p.Context.IncludeDeclaration), nil
}

func prepareRename(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.PrepareRenameParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, enc, _ := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return nil, nil
	}
	if _, sym := symbolAt(ctx, s.features, snap, off); sym == nil {
		return nil, nil
	}
	word := snap.WordAt(off)
	if word.Start == word.End {
		return nil, nil
	}
	r := toRange(snap, enc, word)
	return &protocol.PrepareRenamePlaceholder{Range: r, Placeholder: snap.Text[word.Start:word.End]}, nil
}

func rename(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.RenameParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, enc, _ := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no document %s", p.TextDocument.URI)
	}
	edit, err := renameEdit(ctx, s.features, snap, enc, off, p.NewName)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return edit, nil
}

// symbolAt is the sheet binding the name at off defines or reads, with the
// sheet's analysis; sym is nil when there is none (and in other documents).
func symbolAt(ctx context.Context, a *Analyzed, snap *Snapshot, off int) (s *analysis.Sheet, sym *analysis.Symbol) {
	s = a.sheet(ctx, snap)
	if s == nil {
		return nil, nil
	}
	sym = s.SymbolAt(off)
	if sym == nil || sym.Def == nil {
		return s, nil
	}
	return s, sym
}

// definitions is where the name at off is bound, in this document: a
// sheet's binding, or in C++/Python code the code's (analysis.Code.Definition).
func definitions(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, off int) protocol.LocationSlice {
	s, sym := symbolAt(ctx, a, snap, off)
	if s == nil {
		if h := a.host(ctx, snap); h != nil {
			if r, ok := h.Code().Definition(off); ok {
				return protocol.LocationSlice{location(snap, enc, Span{Start: r.Start, End: r.End})}
			}
		}
		return protocol.LocationSlice{}
	}
	if sym == nil {
		return protocol.LocationSlice{}
	}
	return protocol.LocationSlice{location(snap, enc, spanOf(s.File.Range(sym.Stmt, sym.Def.Name.Range)))}
}

// referencesTo are the uses of the name at off, its binding included when
// includeDecl is set: a sheet's, or in C++/Python code the code's
// (analysis.Code.References).
func referencesTo(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, off int, includeDecl bool) protocol.LocationSlice {
	s, sym := symbolAt(ctx, a, snap, off)
	if s == nil {
		out := protocol.LocationSlice{}
		if h := a.host(ctx, snap); h != nil {
			for _, r := range h.Code().References(off, includeDecl) {
				out = append(out, location(snap, enc, Span{Start: r.Start, End: r.End}))
			}
		}
		return out
	}
	if sym == nil {
		return protocol.LocationSlice{}
	}
	refs := s.References(sym, includeDecl)
	out := make(protocol.LocationSlice, 0, len(refs))
	for _, r := range refs {
		out = append(out, location(snap, enc, spanOf(r)))
	}
	return out
}

// renameEdit renames the name at off to newName wherever it is read and
// bound, or says why it cannot.
func renameEdit(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, off int, newName string) (*protocol.WorkspaceEdit, error) {
	s := a.sheet(ctx, snap)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errNoSheet
	}
	edits, err := s.Rename(off, newName)
	if err != nil {
		return nil, err
	}
	return workspaceEdit(snap, enc, edits), nil
}

type renameError string

func (e renameError) Error() string { return string(e) }

const errNoSheet = renameError("names can be renamed in .cute sheets only")

func location(snap *Snapshot, enc Encoding, sp Span) protocol.Location {
	return protocol.Location{URI: uri.URI(snap.URI), Range: toRange(snap, enc, sp)}
}
