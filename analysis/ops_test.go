package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// A 128x64 fp16 K-major tile read by ldmatrix.x4, 16x16 per instruction.
const (
	tileSmem = "(128,64):(64,1)"
	tileTV   = "((16,2),8,(8,4)):((1,1024),128,(16,2048))"
	// A column read of 32-bit elements: lanes 0-7 down the rows, 4 columns 8 apart.
	colSmem = "(8,64):(64,1)"
	colTV   = "((8,4),1):((1,64),0)"
)

func TestBankOpsValues(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"bank_conflicts(" + tileSmem + ", " + tileTV + ", 16, ldmatrix_x4)", "896"},
		{"bank_wavefronts(" + tileSmem + ", " + tileTV + ", 16, ldmatrix)", "1024"},
		{"bank_conflicts(Sw<3,3,3> o 0 o " + tileSmem + ", " + tileTV + ", 16, ldmatrix_x4)", "0"},
		{"bank_wavefronts(Sw<3,3,3> o 0 o " + tileSmem + ", " + tileTV + ", 16, ldmatrix_x4_trans)", "128"},
		// ldmatrix.x2 reads the first 16 lanes' rows: half the phases.
		{"bank_wavefronts(Sw<3,3,3> o 0 o " + tileSmem + ", " + tileTV + ", 16, ldmatrix_x2)", "64"},
		{"bank_conflicts(" + colSmem + ", " + colTV + ", 32)", "7"},
		{"bank_conflicts(" + colSmem + ", " + colTV + ", 32, st)", "7"},
		{"bank_conflicts((8,64):(65,1), " + colTV + ", 32, ld)", "0"},
		// 16-byte rows read as 4-byte pieces: four instructions, each 32-way.
		{"bank_wavefronts((32,32):(32,1), (32,4):(1,32), 32, 32)", "128"},
		{"bank_wavefronts((32,32):(32,1), (32,4):(1,32), 32, ld, 128)", "32"},
		{"vector_width((32,32):(32,1), (32,4):(1,32), 32)", "128"},
		{"vector_width((32,32):(32,1), (32,4):(1,32), 32, 64)", "128"},
		{"vector_width((8,64):(68,1), ((8,4),8):((64,1),8), 16)", "64"},
		{"vector_width((8,64):(68,1), ((8,4),8):((64,1),8), 16, 128)", "64"},
		{"swizzle_advice(" + tileSmem + ", " + tileTV + ", 16, ldmatrix_x4)", "Sw<3,3,3> o 0 o (128,64):(64,1)"},
		{"swizzle_advice(" + colSmem + ", " + colTV + ", 32)", "Sw<3,0,6> o 0 o (8,64):(64,1)"},
		{"swizzle_advice((8,64):(65,1), " + colTV + ", 32)", "(8,64):(65,1)"},
		// Advised values are layouts to the algebra and to other operations.
		{"size(swizzle_advice(" + colSmem + ", " + colTV + ", 32))", "512"},
		{"bank_conflicts(swizzle_advice(" + tileSmem + ", " + tileTV + ", 16, ldmatrix), " + tileTV + ", 16, ldmatrix)", "0"},
	} {
		v, err := EvalString(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if v.String() != tc.want {
			t.Errorf("%s = %v, want %s", tc.src, v, tc.want)
		}
	}
}

func TestBankOpsValueKinds(t *testing.T) {
	v, err := EvalString("bank_conflicts(" + colSmem + ", " + colTV + ", 32)")
	if err != nil {
		t.Fatal(err)
	}
	bv, ok := v.(BankValue)
	if !ok || bv.Quantity != "conflicts" || bv.Report == nil || bv.Report.Wavefronts != 8 || bv.Access.ElemBits != 32 {
		t.Fatalf("%#v, want a BankValue of conflicts with its report", v)
	}
	if p := bv.Plain(); p.String() != "7" {
		t.Errorf("plain %v", p)
	}
	v, err = EvalString("swizzle_advice(" + colSmem + ", " + colTV + ", 32)")
	if err != nil {
		t.Fatal(err)
	}
	av, ok := v.(AdviceValue)
	if !ok || av.Advice == nil || len(av.Advice.Candidates) < 2 {
		t.Fatalf("%#v, want an AdviceValue with its candidates", v)
	}
	if _, isComposed := av.Plain().(layout.Composed); !isComposed {
		t.Errorf("plain %T, want the swizzled layout", av.Plain())
	}
	v, err = EvalString("swizzle_advice(Sw<3,3,3> o 0 o " + tileSmem + ", " + tileTV + ", 16, ldmatrix)")
	if err != nil {
		t.Fatal(err)
	}
	if av := v.(AdviceValue); !av.Advice.Already || av.Layout.String() != "Sw<3,3,3> o 0 o (128,64):(64,1)" {
		t.Errorf("a conflict-free layout is advised unchanged: %v (already %v)", av.Layout, av.Advice.Already)
	}
}

func TestBankOpsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		code      string
		at        string // the text of the range the error points at
		msg       string
	}{
		{"too few arguments", "bank_conflicts(64:1, 32:1)", CodeType, "bank_conflicts(64:1, 32:1)", "takes (smem, access, bits [, op] [, vector_bits]): 2 argument(s) given"},
		{"too many arguments", "bank_wavefronts(64:1, 32:1, 32, ld, 32, 32)", CodeType, "bank_wavefronts(64:1, 32:1, 32, ld, 32, 32)", "6 argument(s) given"},
		{"smem a swizzle", "bank_conflicts(Sw<3,3,3>, 32:1, 16)", CodeType, "Sw<3,3,3>", "is a swizzle, not a layout or a swizzled layout"},
		{"smem an integer", "vector_width(64, 32:1, 16)", CodeType, "64", "is a integer"},
		{"access a tuple", "bank_conflicts(64:1, (32,1), 16)", CodeType, "(32,1)", "is a integer tuple, not a (thread, value, step...) layout"},
		{"bits a layout", "bank_conflicts(64:1, 32:1, 8:1)", CodeType, "8:1", "not a number of bits"},
		{"bits unknown", "bank_conflicts(64:1, 32:1, ?)", CodeType, "?", "not a number of bits"},
		{"bits unsupported", "bank_conflicts(64:1, 32:1, 12)", CodeAlgebra, "12", "elements of 12 bits"},
		{"partial warp", "bank_conflicts(64:1, 48:1, 32)", CodeAlgebra, "bank_conflicts(64:1, 48:1, 32)", "48 threads is not a whole number of warps of 32"},
		{"partial warp, vector_width", "vector_width(64:1, 48:1, 32)", CodeAlgebra, "vector_width(64:1, 48:1, 32)", "whole number of warps"},
		{"partial warp, advice", "swizzle_advice(64:1, 48:1, 32)", CodeAlgebra, "swizzle_advice(64:1, 48:1, 32)", "whole number of warps"},
		{"two kinds", "bank_conflicts(64:1, 32:1, 32, ld, st)", CodeType, "st", "a second instruction kind st"},
		{"two widths", "bank_conflicts(64:1, 32:1, 32, 32, 32)", CodeType, "32", "a second access width 32"},
		{"bad width", "bank_conflicts(64:1, 32:1, 32, 48)", CodeAlgebra, "48", "a 48-bit access"},
		{"optional of the wrong kind", "bank_conflicts(64:1, 32:1, 32, 8:1)", CodeType, "8:1", "the optional arguments are an instruction kind"},
		{"unknown kind", "bank_conflicts(64:1, 32:1, 32, ldm)", CodeUndefined, "ldm", "undefined: ldm"},
		{"ldmatrix of 4-byte runs", "bank_conflicts(64:1, 32:1, 32, ldmatrix)", CodeAlgebra, "bank_conflicts(64:1, 32:1, 32, ldmatrix)", "ldmatrix moves 16-byte rows"},
		{"negative offsets", "bank_conflicts(64:-1, 32:1, 32)", CodeAlgebra, "bank_conflicts(64:-1, 32:1, 32)", "negative"},
		{"no advice", "swizzle_advice(48:1, ((16,2),1):((1,32),0), 32)", CodeNoAdvice, "swizzle_advice(48:1, ((16,2),1):((1,32),0), 32)", "no swizzle or padding makes the access conflict-free"},
		{"too large to advise", "swizzle_advice((2048,4096):(4096,1), 32:1, 32)", CodeAlgebra, "swizzle_advice((2048,4096):(4096,1), 32:1, 32)", "too large to search"},
	} {
		_, err := EvalString(tc.src)
		ee, ok := err.(*EvalError)
		if !ok {
			t.Errorf("%s: %v (%T), want an *EvalError", tc.name, err, err)
			continue
		}
		at := tc.src[ee.Range.Pos.Offset:ee.Range.End.Offset]
		if ee.Code != tc.code || at != tc.at || !strings.Contains(ee.Message, tc.msg) {
			t.Errorf("%s: %s at %q: %s; want %s at %q containing %q", tc.name, ee.Code, at, ee.Message, tc.code, tc.at, tc.msg)
		}
	}
}

// A name bound in the sheet is its value, even where a keyword could be.
func TestBankKeywordShadowedByBinding(t *testing.T) {
	got := findingsOf("ld = 8:1\nc = bank_conflicts(64:1, 32:1, 32, ld)\nassert c == c\n")
	if len(got) != 1 || !strings.Contains(got[0], "2:36 type-mismatch: bank_conflicts: 8:1 is a layout: the optional arguments") {
		t.Errorf("findings %q", got)
	}
	s := AnalyzeSheet("t.cute", []byte("c = bank_conflicts(64:1, 32:1, 32, st)\nassert c == 0\n"))
	for name, sym := range s.Refs() {
		if name.Name == "st" {
			t.Errorf("the keyword st resolves as a sheet name (%v)", sym)
		}
	}
	if len(s.Findings) != 0 {
		t.Errorf("findings %v", s.Findings)
	}
}

func TestReadBankOp(t *testing.T) {
	for s, want := range map[string]bank.Access{
		"ld": {Op: bank.Load}, "st": {Op: bank.Store},
		"ldmatrix": {Op: bank.LdMatrix, Matrices: 4}, "ldmatrix_x1": {Op: bank.LdMatrix, Matrices: 1},
		"stmatrix_x2_trans": {Op: bank.StMatrix, Matrices: 2, Trans: true},
	} {
		var a bank.Access
		if err := readBankOp(s, &a); err != nil || a.Op != want.Op || a.Matrices != want.Matrices || a.Trans != want.Trans {
			t.Errorf("%s: %+v %v, want %+v", s, a, err, want)
		}
	}
	for s, msg := range map[string]string{"ld_x4": "takes no matrix count", "st_trans": "takes no matrix count", "ldmatrix_xq": "not a matrix count", "lds": "unknown shared-memory op"} {
		var a bank.Access
		if err := readBankOp(s, &a); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", s, err, msg)
		}
	}
	// Every keyword the operations accept reads.
	for _, k := range bankKeywords {
		var a bank.Access
		if err := readBankOp(k, &a); err != nil {
			t.Errorf("keyword %s: %v", k, err)
		}
	}
}

func sheetFinding(t *testing.T, s *Sheet, code string) Finding {
	t.Helper()
	for _, f := range s.Findings {
		if f.Code == code {
			return f
		}
	}
	t.Fatalf("no %s finding in %v", code, s.Findings)
	return Finding{}
}

func textOf(src string, r grammar.Range) string { return src[r.Pos.Offset:r.End.Offset] }

func TestBankConflictFinding(t *testing.T) {
	// A literal smem argument: the fix rewrites it.
	src := "assert bank_conflicts(" + colSmem + ", " + colTV + ", 32) == 0\n"
	s := AnalyzeSheet("t.cute", []byte(src))
	f := sheetFinding(t, s, CodeBankConflict)
	if f.Severity != SeverityWarning || textOf(src, f.Range) != "bank_conflicts("+colSmem+", "+colTV+", 32)" {
		t.Errorf("finding %v at %q", f.Severity, textOf(src, f.Range))
	}
	want := "bank conflicts: 8 wavefronts where 1 would do (8-way at worst: warp 0 instruction 0, lanes 0-31, banks 0, 8, 16, 24 hold 8 words each); Sw<3,0,6> o 0 o (8,64):(64,1) removes them"
	if f.Message != want {
		t.Errorf("message\n%s\nwant\n%s", f.Message, want)
	}
	if len(f.Fixes) != 1 || len(f.Fixes[0].Edits) != 1 || textOf(src, f.Fixes[0].Edits[0].Range) != colSmem || f.Fixes[0].Edits[0].NewText != "Sw<3,0,6> o 0 o (8,64):(64,1)" {
		t.Errorf("fixes %+v", f.Fixes)
	}
	sheetFinding(t, s, CodeAssertFailed) // the assert fails too

	// A name bound to a literal: the fix rewrites the binding.
	src = "sA = " + tileSmem + "\ntv = " + tileTV + "\nn = bank_wavefronts(sA, tv, 16, ldmatrix_x4)\nassert n == 1024\n"
	s = AnalyzeSheet("t.cute", []byte(src))
	f = sheetFinding(t, s, CodeBankConflict)
	if len(f.Fixes) != 1 || textOf(src, f.Fixes[0].Edits[0].Range) != tileSmem || f.Fixes[0].Edits[0].NewText != "Sw<3,3,3> o 0 o (128,64):(64,1)" || f.Fixes[0].Edits[0].Range.Pos.Line != 1 {
		t.Errorf("fixes %+v", f.Fixes)
	}
	if len(s.Findings) != 1 {
		t.Errorf("findings %v, want the conflict alone", s.Findings)
	}

	// A name bound to a call: advice in the message, no edit.
	src = "sA = coalesce(" + colSmem + ")\nassert bank_conflicts(sA, " + colTV + ", 32) == 7\n"
	s = AnalyzeSheet("t.cute", []byte(src))
	f = sheetFinding(t, s, CodeBankConflict)
	if len(f.Fixes) != 0 || !strings.Contains(f.Message, "Sw<3,0,6> o 0 o (8,64):(64,1) removes them") {
		t.Errorf("%s, fixes %+v", f.Message, f.Fixes)
	}

	// No swizzle or padding helps: the finding says why.
	src = "assert bank_conflicts(48:1, ((16,2),1):((1,32),0), 32) == 1\n"
	f = sheetFinding(t, AnalyzeSheet("t.cute", []byte(src)), CodeBankConflict)
	if len(f.Fixes) != 0 || !strings.Contains(f.Message, "2 wavefronts where 1 would do") || !strings.Contains(f.Message, "no swizzle or padding makes the access conflict-free") {
		t.Errorf("%s, fixes %+v", f.Message, f.Fixes)
	}

	// Conflict-free: nothing to say.
	if got := findingsOf("assert bank_conflicts(Sw<3,3,3> o 0 o " + tileSmem + ", " + tileTV + ", 16, ldmatrix_x4) == 0\n"); len(got) != 0 {
		t.Errorf("findings %q", got)
	}
	// Only bank_conflicts and bank_wavefronts warn of conflicts.
	if got := findingsOf("assert vector_width(" + colSmem + ", " + colTV + ", 32) == 32\n"); len(got) != 0 {
		t.Errorf("findings %q", got)
	}
}

func TestVectorWidthFinding(t *testing.T) {
	for _, op := range []string{"vector_width", "bank_conflicts", "bank_wavefronts"} {
		src := "x = " + op + "((8,64):(68,1), ((8,4),8):((64,1),8), 16, 128)\nassert x == x\n"
		s := AnalyzeSheet("t.cute", []byte(src))
		f := sheetFinding(t, s, CodeVectorWidth)
		if f.Severity != SeverityWarning || !strings.HasPrefix(textOf(src, f.Range), op+"(") || !strings.Contains(f.Message, "128-bit accesses asked for, but the runs of 8 contiguous element(s) are aligned to only 8 bytes: 64-bit accesses used") {
			t.Errorf("%s: %v %q: %s", op, f.Severity, textOf(src, f.Range), f.Message)
		}
	}
	if got := findingsOf("assert vector_width((8,64):(68,1), ((8,4),8):((64,1),8), 16, 64) == 64\n"); len(got) != 0 {
		t.Errorf("a width the layouts give: %q", got)
	}
}

// The cache keeps the call findings and moves them with their statement;
// the fix on another statement's binding follows that binding.
func TestBankFindingsCached(t *testing.T) {
	v1 := "sA = " + colSmem + "\nassert bank_conflicts(sA, " + colTV + ", 32) == 0\n"
	edits := []string{
		v1,
		"# a comment\n" + v1, // everything moves down
		"sA = " + colSmem + "\n\n\n" + v1[len("sA = "+colSmem+"\n"):],                    // only the assert moves
		"sA = " + colSmem + "\nassert bank_conflicts(sA, " + colTV + ", 32) == 0 # ok\n", // only the assert's text changes
		"sA = " + colSmem + "\nx = 1\nassert bank_conflicts(sA, " + colTV + ", 32) == 0\n",
	}
	cache := NewCache()
	reused := 0
	for i, src := range edits {
		got := AnalyzeSheetCached("t.cute", []byte(src), cache)
		want := AnalyzeSheet("t.cute", []byte(src))
		reused += got.Reused
		if fmt.Sprintf("%+v", got.Findings) != fmt.Sprintf("%+v", want.Findings) {
			t.Errorf("edit %d: cached findings\n%+v\nwant\n%+v", i, got.Findings, want.Findings)
		}
		f := sheetFinding(t, got, CodeBankConflict)
		if len(f.Fixes) != 1 || textOf(src, f.Fixes[0].Edits[0].Range) != colSmem {
			t.Errorf("edit %d: the fix edits %+v", i, f.Fixes)
		}
	}
	if reused == 0 {
		t.Errorf("nothing came from the cache")
	}
}

func TestSheetOpsInCompletionAndSignatures(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte("x = bank_"))
	var labels []string
	for _, c := range s.Complete(len("x = bank_")) {
		labels = append(labels, c.Label)
		if c.Label == "bank_conflicts" && (c.Kind != CompleteOperation || !strings.HasPrefix(c.Detail, "bank_conflicts(smem, access, bits")) {
			t.Errorf("completion %+v", c)
		}
	}
	if strings.Join(labels, " ") != "bank_conflicts bank_wavefronts" {
		t.Errorf("completions %v", labels)
	}
	src := "x = swizzle_advice(sA, tv, "
	sig, ok := SignatureAt([]byte(src), len(src))
	if !ok || sig.Op.Name != "swizzle_advice" || sig.ActiveParam != 2 || strings.Join(sig.Params, ",") != "smem,access,bits,op,vector_bits" {
		t.Errorf("signature %+v %v", sig, ok)
	}
	// The algebra's operations are still there.
	if _, ok := LookupOp("composition"); !ok {
		t.Errorf("composition is not found")
	}
	names := map[string]bool{}
	for _, op := range Ops() {
		names[op.Name] = true
	}
	for _, n := range []string{"composition", "bank_conflicts", "bank_wavefronts", "vector_width", "swizzle_advice"} {
		if !names[n] {
			t.Errorf("Ops lacks %s", n)
		}
	}
	// A typo of an analysis operation is suggested.
	if got := findingsOf("x = bank_conflict(64:1, 32:1, 32)\nassert x == x\n"); len(got) != 1 || !strings.Contains(got[0], "did you mean bank_conflicts?") {
		t.Errorf("findings %q", got)
	}
	// Renaming a binding to an analysis operation's name is refused.
	s = AnalyzeSheet("t.cute", []byte("A = 8:1\nassert A == A\n"))
	if _, err := s.Rename(0, "vector_width"); err == nil || !strings.Contains(err.Error(), "is a CuTe operation") {
		t.Errorf("rename: %v", err)
	}
}

func TestOpTableEntries(t *testing.T) {
	// Every entry is found by its name, and names near one are not.
	for i := range opTable {
		name := opTable[i].Name
		if op, ok := lookupOp(name); !ok || op != &opTable[i] {
			t.Errorf("lookupOp(%q) = %v, %v", name, op, ok)
		}
		for _, near := range []string{name + "_", name[:len(name)-1], "x" + name[1:], ""} {
			if op, ok := lookupOp(near); ok && op.Name != near {
				t.Errorf("lookupOp(%q) found %s", near, op.Name)
			}
		}
	}
	for _, op := range Ops() {
		if op.Apply == nil || op.Doc == "" || !strings.HasPrefix(op.Signature, op.Name) {
			t.Errorf("%s: signature %q, doc %q, apply set %v", op.Name, op.Signature, op.Doc, op.Apply != nil)
		}
	}
	if _, err := ApplyOp("no_such_op"); err == nil || !strings.Contains(err.Error(), "no such operation") {
		t.Errorf("ApplyOp of an unknown name: %v", err)
	}
}

func TestAssertComparesAdvisedLayouts(t *testing.T) {
	src := "sB = swizzle_advice(" + colSmem + ", " + colTV + ", 32)\nassert sB == Sw<3,0,6> o 0 o (8,64):(64,1)\nassert sB is Sw<3,0,6> o 0 o (8,64):(64,1)\nassert bank_conflicts(sB, " + colTV + ", 32) == 0\n"
	for _, f := range AnalyzeSheet("t.cute", []byte(src)).Findings {
		if f.Severity != SeverityHint {
			t.Errorf("finding %s: %s", f.Code, f.Message)
		}
	}
}
