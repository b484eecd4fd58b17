package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	notificationHandlers[protocol.MethodInitialized] = func(context.Context, *Server, []byte) error { return nil }
	notificationHandlers[protocol.MethodTextDocumentDidOpen] = didOpen
	notificationHandlers[protocol.MethodTextDocumentDidChange] = didChange
	notificationHandlers[protocol.MethodTextDocumentDidClose] = didClose
	notificationHandlers[protocol.MethodTextDocumentDidSave] = func(context.Context, *Server, []byte) error { return nil }
	notificationHandlers[protocol.MethodWorkspaceDidChangeConfiguration] = didChangeConfiguration
	notificationHandlers[protocol.MethodWorkspaceDidChangeWorkspaceFolders] = didChangeWorkspaceFolders
}

// negotiateEncoding picks utf-8 when the client offers it (no conversion on
// our side), utf-16 otherwise (the protocol's mandatory default).
func negotiateEncoding(offered []protocol.PositionEncodingKind) Encoding {
	for _, k := range offered {
		if k == protocol.PositionEncodingKindUTF8 {
			return UTF8
		}
	}
	return UTF16
}

func encodingKind(e Encoding) protocol.PositionEncodingKind {
	switch e {
	case UTF8:
		return protocol.PositionEncodingKindUTF8
	case UTF32:
		return protocol.PositionEncodingKindUTF32
	}
	return protocol.PositionEncodingKindUTF16
}

func initialize(_ context.Context, s *Server, params []byte) (any, error) {
	var p protocol.InitializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	caps := p.Capabilities
	var offered []protocol.PositionEncodingKind
	if caps.General != nil {
		offered = caps.General.PositionEncodings
	}
	enc := negotiateEncoding(offered)
	// A client that pulls diagnostics would show pushed ones twice.
	push := caps.TextDocument == nil || caps.TextDocument.Diagnostic == nil
	refresh := caps.Workspace != nil && caps.Workspace.Diagnostics != nil &&
		caps.Workspace.Diagnostics.RefreshSupport != nil && *caps.Workspace.Diagnostics.RefreshSupport
	inlayRefresh := caps.Workspace != nil && caps.Workspace.InlayHint != nil &&
		caps.Workspace.InlayHint.RefreshSupport != nil && *caps.Workspace.InlayHint.RefreshSupport

	cfg := s.cfg
	// A client that runs hover's "Show picture" command link says so
	// (the VS Code extension); others would show the link as raw text.
	var opts struct {
		PictureLinks bool `json:"pictureLinks"`
	}
	_ = json.Unmarshal(p.InitializationOptions, &opts)
	if len(p.InitializationOptions) > 0 {
		merged, err := cfg.Merge(p.InitializationOptions)
		if err != nil {
			s.logf("initializationOptions: %v", err)
		} else {
			cfg = merged
		}
	}

	var roots []string
	if folders, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			if dir := filePath(string(f.URI)); dir != "" {
				roots = append(roots, dir)
			}
		}
	}
	if len(roots) == 0 && p.RootURI != nil {
		if dir := filePath(string(*p.RootURI)); dir != "" {
			roots = append(roots, dir)
		}
	}

	s.mu.Lock()
	s.enc = enc
	s.cfg = cfg
	s.pushDiagnostics = push
	s.refreshDiagnostics = refresh
	s.refreshInlayHints = inlayRefresh
	s.roots = roots
	s.pictureLinks = opts.PictureLinks
	s.mu.Unlock()
	s.state.Store(stateInitialized)

	return &protocol.InitializeResult{
		Capabilities: capabilities(enc),
		ServerInfo:   protocol.ServerInfo{Name: "cute-lsp", Version: protocol.NewOptional(Version)},
	}, nil
}

func capabilities(enc Encoding) protocol.ServerCapabilities {
	yes := true
	incremental := protocol.TextDocumentSyncKindIncremental
	diagnosticID := "cute-lsp"
	return protocol.ServerCapabilities{
		PositionEncoding: encodingKind(enc),
		TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &incremental},
		HoverProvider:    protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, "refactor", "source"},
		},
		InlayHintProvider:      protocol.Boolean(true),
		DocumentSymbolProvider: protocol.Boolean(true),
		SemanticTokensProvider: &protocol.SemanticTokensOptions{
			Legend: protocol.SemanticTokensLegend{TokenTypes: tokenTypeNames, TokenModifiers: tokenModifierNames},
			Full:   protocol.Boolean(true),
			Range:  protocol.Boolean(true),
		},
		DefinitionProvider:         protocol.Boolean(true),
		ReferencesProvider:         protocol.Boolean(true),
		RenameProvider:             &protocol.RenameOptions{PrepareProvider: &yes},
		CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{"(", ",", ":", "<", "@"}},
		SignatureHelpProvider:      &protocol.SignatureHelpOptions{TriggerCharacters: []string{"(", ","}},
		DocumentFormattingProvider: protocol.Boolean(true),
		ExecuteCommandProvider:     protocol.ExecuteCommandOptions{Commands: []string{PictureCommand}},
		Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
			Supported: &yes, ChangeNotifications: protocol.Boolean(true),
		}},
		NotebookDocumentSync: notebookSync(),
		DiagnosticProvider: &protocol.DiagnosticOptions{
			Identifier:            &diagnosticID,
			InterFileDependencies: false,
			WorkspaceDiagnostics:  true,
		},
	}
}

func shutdown(_ context.Context, s *Server, _ []byte) (any, error) {
	s.state.Store(stateShutdown)
	s.diags.stop()
	return nil, nil
}

func didOpen(_ context.Context, s *Server, params []byte) error {
	// Clients send one shape of params, read here by hand
	// (readOpenParams); any other goes through protocol's decoder.
	p, ok := readOpenParams(params)
	if !ok {
		var dp protocol.DidOpenTextDocumentParams
		if err := decode(params, &dp); err != nil {
			return err
		}
		td := dp.TextDocument
		// The decoder's strings without escapes (the URI, the language id)
		// share the memory of its copy of the whole message, text included:
		// kept as they are, they would keep that copy alive beside the text.
		p = openParams{strings.Clone(string(td.URI)), strings.Clone(string(td.LanguageID)), td.Version, td.Text}
	}
	snap := s.store.Open(p.uri, p.languageID, p.version, p.text)
	// A notebook cell joins its notebook before its diagnostics run (they
	// read the cells before it).
	s.notebooks.cellOpened(snap.URI)
	s.diags.schedule(snap.URI, true)
	return nil
}

func didChange(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidChangeTextDocumentParams
	if err := decode(params, &p); err != nil {
		return err
	}
	enc, _, _ := s.session()
	uri := string(p.TextDocument.URI)
	if _, ok := s.store.Change(uri, p.TextDocument.Version, contentChanges(p.ContentChanges), enc); !ok {
		s.logf("didChange for %s, which is not open: ignored", uri)
		return nil
	}
	s.diags.schedule(uri, false)
	s.notebooks.cellChanged(s, uri)
	return nil
}

// contentChanges are a didChange's changes as the store applies them.
func contentChanges(events []protocol.TextDocumentContentChangeEvent) []Change {
	changes := make([]Change, 0, len(events))
	for _, c := range events {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			changes = append(changes, Change{
				Start: Position{int(c.Range.Start.Line), int(c.Range.Start.Character)},
				End:   Position{int(c.Range.End.Line), int(c.Range.End.Character)},
				Text:  strings.Clone(c.Text),
			})
		case *protocol.TextDocumentContentChangeWholeDocument:
			changes = append(changes, Change{Whole: true, Text: strings.Clone(c.Text)})
		}
	}
	return changes
}

func didClose(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(params, &p); err != nil {
		return err
	}
	uri := string(p.TextDocument.URI)
	s.store.Close(uri)
	s.diags.forget(uri)
	s.features.Closed(uri)
	s.cellsChanged(s.notebooks.cellClosed(uri))
	return nil
}

func didChangeConfiguration(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidChangeConfigurationParams
	if err := decode(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	merged, err := s.cfg.Merge(p.Settings)
	if err == nil {
		s.cfg = merged
		s.cfgGen++
	}
	s.mu.Unlock()
	if err != nil {
		s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: "cute-lsp: " + err.Error()})
		return err
	}
	// Findings may depend on the configuration: analyze every open document
	// again, and ask a pulling client to pull again.
	for _, snap := range s.store.All() {
		s.diags.schedule(snap.URI, true)
	}
	s.mu.Lock()
	refresh := s.refreshDiagnostics
	s.mu.Unlock()
	if refresh && s.conn != nil {
		// A call waits for its answer, which the read loop (running this
		// notification) delivers: it must not be made from here.
		s.goSafe(protocol.MethodWorkspaceDiagnosticRefresh, func() {
			if _, err := s.conn.Call(context.Background(), protocol.MethodWorkspaceDiagnosticRefresh, nil, nil); err != nil {
				s.logf("%s: %v", protocol.MethodWorkspaceDiagnosticRefresh, err)
			}
		})
	}
	return nil
}

// didChangeWorkspaceFolders keeps the roots that workspace diagnostics
// search in step with the editor's folders.
func didChangeWorkspaceFolders(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidChangeWorkspaceFoldersParams
	if err := decode(params, &p); err != nil {
		return err
	}
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		removed[filePath(string(f.URI))] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	roots := s.roots[:0:0]
	for _, r := range s.roots {
		if !removed[r] {
			roots = append(roots, r)
		}
	}
	for _, f := range p.Event.Added {
		if dir := filePath(string(f.URI)); dir != "" {
			roots = append(roots, dir)
		}
	}
	s.roots = roots
	return nil
}

// filePath is the local path of a file: URI, or "" for any other scheme
// and for a URI fileURIPath refuses (a host, a query, a fragment).
func filePath(u string) string {
	path, err := fileURIPath(u)
	if err != nil {
		return ""
	}
	return path
}

// fileURI is the file: URI of a local path.
func fileURI(path string) string { return string(uri.File(path)) }
