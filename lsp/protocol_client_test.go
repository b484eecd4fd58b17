package lsp

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// diagnosticsClient is a go.lsp.dev/protocol client that hands every
// publication to a channel.
type diagnosticsClient struct {
	protocol.UnimplementedClient
	published chan *protocol.PublishDiagnosticsParams
}

func (c diagnosticsClient) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	owned, err := protocol.Clone(p)
	if err != nil {
		return err
	}
	c.published <- owned
	return nil
}

// TestProtocolClientInterop talks to the server with go.lsp.dev/protocol's
// own typed client, so every answer must decode into the protocol's types
// (unions included), and the library's cancellation (a numeric
// $/cancelRequest sent when a call's context ends) must reach the server.
func TestProtocolClientInterop(t *testing.T) {
	srvIn, cliOut, _ := os.Pipe()
	cliIn, srvOut, _ := os.Pipe()
	srv := NewServer(Options{Log: io.Discard})
	srv.handleExtra("test/block", blockUntilCancelled)
	exit := make(chan int, 1)
	go func() { exit <- srv.Serve(context.Background(), pipeConn{srvIn, srvOut}) }()

	client := diagnosticsClient{published: make(chan *protocol.PublishDiagnosticsParams, 16)}
	ctx, conn, server := protocol.NewClient(context.Background(), client, jsonrpc2.NewStream(pipeConn{cliIn, cliOut}))
	defer conn.Close()

	init, err := server.Initialize(ctx, &protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{
		General: &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8}}}})
	if err != nil {
		t.Fatal(err)
	}
	if init.Capabilities.PositionEncoding != protocol.PositionEncodingKindUTF8 {
		t.Errorf("positionEncoding = %q", init.Capabilities.PositionEncoding)
	}
	if _, ok := init.Capabilities.TextDocumentSync.(*protocol.TextDocumentSyncOptions); !ok {
		t.Errorf("textDocumentSync decoded as %T", init.Capabilities.TextDocumentSync)
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	doc := protocol.TextDocumentIdentifier{URI: uri.URI(sheetURI)}
	if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri.URI(sheetURI), LanguageID: "cute", Version: 1, Text: brokenSheet}}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-client.published:
		if len(p.Diagnostics) != 2 || p.Diagnostics[0].Code != protocol.String("syntax") || p.Diagnostics[1].Code != protocol.String("undefined-name") {
			t.Errorf("published %+v", p.Diagnostics)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no diagnostics")
	}

	hover, err := server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: protocol.Position{Line: 2, Character: 7}}})
	if err != nil {
		t.Fatal(err)
	}
	if mc, ok := hover.Contents.(*protocol.MarkupContent); !ok || !strings.Contains(mc.Value, "undefined: thr") {
		t.Errorf("hover contents %#v", hover.Contents)
	}
	actions, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc, Range: protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 {
		t.Fatalf("actions %+v", actions)
	}
	if a, ok := actions[0].(*protocol.CodeAction); !ok || a.Edit == nil || len(a.Edit.Changes[uri.URI(sheetURI)]) != 1 {
		t.Errorf("action %#v", actions[0])
	}
	syms, err := server.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: doc})
	if err != nil {
		t.Fatal(err)
	}
	// thr's binding does not parse: the outline has tile and val.
	if s, ok := syms.(protocol.DocumentSymbolSlice); !ok || len(s) != 2 || s[0].Name != "tile" || s[1].Name != "val" {
		t.Errorf("symbols %#v", syms)
	}
	report, err := server.Diagnostic(ctx, &protocol.DocumentDiagnosticParams{TextDocument: doc})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := report.(*protocol.RelatedFullDocumentDiagnosticReport); !ok || len(r.Items) != 2 {
		t.Errorf("pull report %#v", report)
	}

	// The library's cancellation: the call's context ends, it sends
	// $/cancelRequest with the numeric id, and the server lets go.
	callCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	err = protocol.Call(callCtx, conn, "test/block", map[string]any{}, nil)
	cancel()
	if err == nil {
		t.Fatal("blocked call returned no error")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		srv.mu.Lock()
		n := len(srv.inflight)
		srv.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never saw the library's $/cancelRequest")
		}
		time.Sleep(5 * time.Millisecond)
	}

	if err := server.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := server.Exit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
	cliOut.Close()
}
