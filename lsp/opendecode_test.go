package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/protocol"
)

// openParamsCases are didOpen params readOpenParams reads (true) or leaves
// to protocol's decoder (false).
var openParamsCases = []struct {
	params string
	fast   bool
}{
	{`{"textDocument":{"uri":"file:///a.cute","languageId":"cute","version":1,"text":"a = 4:1\n"}}`, true},
	{` { "textDocument" : { "text" : "x\ty\r\n\"q\"\\/\b\f" , "version" : -7 , "languageId" : "" , "uri" : "file:///b" } } `, true},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":2147483647,"text":"\u00e9\ud83d\ude00 é😀 \u0041"}}`, true},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":-2147483648,"text":""}}`, true},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":0,"text":"\/"}}`, true},
	// Left to the decoder: other members, missing or repeated ones, other
	// types, numbers an int32 does not hold exactly, escapes it may read
	// otherwise, bad UTF-8, control characters, trailing bytes.
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":"","extra":1}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":""},"x":1}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1}}`, false},
	{`{"textDocument":{"uri":"file:///a","uri":"file:///b","languageId":"cute","version":1,"text":""}}`, false},
	{`{"textDocument":{"uri":null,"languageId":"cute","version":1,"text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":"1","text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1.0,"text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1e2,"text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":2147483648,"text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":01,"text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":-,"text":""}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":"\ud83d"}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":"\ude00"}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":"\x"}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":"\u12"}}`, false},
	{"{\"textDocument\":{\"uri\":\"file:///a\",\"languageId\":\"cute\",\"version\":1,\"text\":\"\xff\"}}", false},
	{"{\"textDocument\":{\"uri\":\"file:///a\",\"languageId\":\"cute\",\"version\":1,\"text\":\"a\nb\"}}", false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":"unterminated}}`, false},
	{`{"textDocument":{"uri":"file:///a","languageId":"cute","version":1,"text":""}} x`, false},
	{`{"text\u0044ocument":{"uri":"file:///a","languageId":"cute","version":1,"text":""}}`, false},
	{`{"textDocument":{}}`, false},
	{`[]`, false},
	{``, false},
}

// TestReadOpenParams: readOpenParams reads the shape clients send as
// protocol's decoder does, and leaves every other shape to it.
func TestReadOpenParams(t *testing.T) {
	for _, c := range openParamsCases {
		_, fast := readOpenParams([]byte(c.params))
		if fast != c.fast {
			t.Errorf("readOpenParams(%s): read %v, want %v", c.params, fast, c.fast)
		}
		checkOpenParams(t, []byte(c.params))
	}
	// The text of a peer sheet, as the benchmark client sends it.
	text := peerSheet(200)
	params, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///p.cute", "languageId": "cute", "version": 3, "text": text}})
	p, ok := readOpenParams(params)
	if !ok || p.text != text || p.uri != "file:///p.cute" || p.languageID != "cute" || p.version != 3 {
		t.Errorf("the peer sheet's params read as %v %q %q %d, text equal %v", ok, p.uri, p.languageID, p.version, p.text == text)
	}
	checkOpenParams(t, params)
}

// checkOpenParams fails t when readOpenParams reads params otherwise than
// protocol's decoder.
func checkOpenParams(t *testing.T, params []byte) {
	t.Helper()
	p, ok := readOpenParams(params)
	if !ok {
		return
	}
	var want protocol.DidOpenTextDocumentParams
	if err := protocol.Unmarshal(params, &want); err != nil {
		t.Fatalf("readOpenParams(%q) read what protocol refuses: %v", params, err)
	}
	td := want.TextDocument
	if p.uri != string(td.URI) || p.languageID != string(td.LanguageID) || p.version != td.Version || p.text != td.Text {
		t.Fatalf("readOpenParams(%q) = %q %q %d %q, protocol reads %q %q %d %q", params,
			p.uri, p.languageID, p.version, p.text, td.URI, td.LanguageID, td.Version, td.Text)
	}
}

// FuzzReadOpenParams: whatever readOpenParams reads, protocol's decoder
// reads the same from.
//
//	go test ./lsp -run '^$' -fuzz FuzzReadOpenParams -fuzztime 60s
func FuzzReadOpenParams(f *testing.F) {
	for _, c := range openParamsCases {
		f.Add([]byte(c.params))
	}
	f.Fuzz(func(t *testing.T, params []byte) { checkOpenParams(t, params) })
}

// BenchmarkReadOpenParams: didOpen's params of the 5,000-line peer sheet,
// read by hand and by protocol's decoder.
func BenchmarkReadOpenParams(b *testing.B) {
	params, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///p.cute", "languageId": "cute", "version": 1, "text": peerSheet(benchLines)}})
	b.Run("readOpenParams", func(b *testing.B) {
		b.SetBytes(int64(len(params)))
		for b.Loop() {
			if _, ok := readOpenParams(params); !ok {
				b.Fatal("not read")
			}
		}
	})
	b.Run("protocol", func(b *testing.B) {
		b.SetBytes(int64(len(params)))
		for b.Loop() {
			var p protocol.DidOpenTextDocumentParams
			if err := protocol.Unmarshal(params, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
