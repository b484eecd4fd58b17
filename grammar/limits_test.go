package grammar

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates (the heap's running total: it counts
// what a collection freed meanwhile, so it bounds the peak from above).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// bigDescriptor is a flat tuple of (2,3) pairs of about n bytes on one line.
func bigDescriptor(n int) string {
	return "(" + strings.Repeat("(2,3),", n/6) + "(2,3))"
}

func TestLongExpressionIsRefusedWithoutScanningIt(t *testing.T) {
	src := bigDescriptor(2 << 20)
	var err *Error
	bytes := allocated(func() { _, err = ParseExpr(src) })
	if err == nil || !strings.Contains(err.Message, "is longer than the limit of 262,144") {
		t.Fatalf("error %v", err)
	}
	if err.Range.Pos.Offset != 0 || int(err.Range.End.Offset) != len(src) {
		t.Errorf("range %v, want the whole expression [0, %d)", err.Range, len(src))
	}
	// On main: a token per byte, hundreds of megabytes.
	if bytes > 1<<20 {
		t.Errorf("refusing it allocated %d bytes", bytes)
	}
}

func TestLongStatementInASheetIsRefusedInBoundedMemory(t *testing.T) {
	src := "A = 8:1\nx = " + bigDescriptor(2<<20) + "\nB = 4:1\n"
	var f *File
	var errs []*Error
	bytes := allocated(func() { f, errs = ParseFile("t.cute", []byte(src)) })
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "longer than the limit") || errs[0].Range.Pos.Line != 2 {
		t.Fatalf("errors %v", errs)
	}
	if len(f.Statements) != 3 {
		t.Errorf("%d statements, want 3 (the others parse)", len(f.Statements))
	}
	// The statement's text is kept (a BadStmt holds it) and copied once;
	// on main the explanation of the error scanned it again (3.7 GB for 10 MB).
	if limit := uint64(8 * len(src)); bytes > limit {
		t.Errorf("parsing allocated %d bytes, want at most %d", bytes, limit)
	}
}

func TestDeepBracketsStopTheScanAtTheLimit(t *testing.T) {
	for _, src := range []string{strings.Repeat("(", 200_000), "composition(" + strings.Repeat("[", 100_000)} {
		var err *Error
		bytes := allocated(func() { _, err = ParseExpr(src) })
		if err == nil || !strings.Contains(err.Message, "nested deeper than the limit of 256") {
			t.Fatalf("error %v", err)
		}
		// 257 tokens scanned, not 200,000 (on main: 16 MB of tokens).
		if bytes > 1<<20 {
			t.Errorf("%.20s...: refusing it allocated %d bytes", src, bytes)
		}
	}
	f, errs := ParseFile("t.cute", []byte("x = "+strings.Repeat("(", 200_000)+"\n"))
	if len(errs) != 1 || errs[0].Range.Pos.Column != 5+MaxDepth || len(f.Statements) != 1 {
		t.Fatalf("errors %v", errs)
	}
}

// TestExpressionsPastTheKeptTokensParseAlike: an expression of more tokens
// than the statement splitter keeps (maxKeptTokens) is scanned again by
// readExpr; its tree and its errors are those of a short one.
func TestExpressionsPastTheKeptTokensParseAlike(t *testing.T) {
	for _, n := range []int{10, maxKeptTokens/2 - 2, maxKeptTokens, 3 * maxKeptTokens} {
		x := "(" + strings.Repeat("1,", n) + "1):(" + strings.Repeat("_2,", n) + "3)"
		f, errs := ParseFile("t.cute", []byte("A = "+x+"\n"))
		if len(errs) != 0 {
			t.Fatalf("%d: %v", n, errs)
		}
		want, err := ParseExprAt(x, Position{Offset: 4, Line: 1, Column: 5})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Statements[0].(*Binding).Value; !reflect.DeepEqual(got, want) {
			t.Errorf("%d elements: the tree differs from ParseExprAt's", n)
		}
		// A missing ')' at the end: the same error either way.
		_, errs = ParseFile("t.cute", []byte("A = "+x[:len(x)-1]+"\n"))
		if len(errs) != 1 || int(errs[0].Range.Pos.Offset) != 4+len(x)-1 || !strings.Contains(errs[0].Message, "expected ',' or ')'") {
			t.Errorf("%d elements: errors %v", n, errs)
		}
	}
}
