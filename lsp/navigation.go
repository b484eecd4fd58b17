package lsp

import (
	"context"

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

func toLocations(snap *Snapshot, enc Encoding, spans []Span) protocol.LocationSlice {
	out := make(protocol.LocationSlice, 0, len(spans))
	for _, sp := range spans {
		out = append(out, protocol.Location{URI: uri.URI(snap.URI), Range: toRange(snap, enc, sp)})
	}
	return out
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
	return toLocations(snap, enc, s.features.Definition(ctx, snap, off)), nil
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
	return toLocations(snap, enc, s.features.References(ctx, snap, off, p.Context.IncludeDeclaration)), nil
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
	defs := s.features.Definition(ctx, snap, off)
	if len(defs) == 0 || snap.Kind == KindCpp || snap.Kind == KindPython {
		return nil, nil // names in code have a definition but no rename
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
	edits, err := s.features.Rename(ctx, snap, off, p.NewName)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return workspaceEdit(snap, enc, edits), nil
}
