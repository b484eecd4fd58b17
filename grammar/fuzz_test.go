package grammar

import (
	"strings"
	"testing"
)

// FuzzParse: parsing never panics (a recovered panic shows up as an
// "internal parser error" and fails too), and whatever parses prints in every
// style to text that parses back to the same AST.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"(2,(2,2)):(4,(2,1))", "8:1", "((4,2)):((2,1))", "(_8,_64):(_64,_1)", "(4, 8):(1, 4)", "<8 : 2>",
		"(?,?{i64}):(1,?{div=16})", "1/2@0", "((1@0, 8@1), 1@2)", "()", "Sw<3,4,3> o _0 o (8,64):(64,1)",
		"SW_3_4_-3", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "[(4,8):(1,4);_;32]", "(_,1,_)",
		"S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
		`!cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">`, "logical_divide(A, [4:1;8:1])",
		"A = (4,8):(1,4) # c\nassert A == composition(A, 8:1)\nB = (1,\n 2)\n", "(4:8)", "1/0@0",
		"gmem_ptr[16b](GMEM_ADDR_A) o (512,256):(256,_1)", "Sw<3,4,3>_smem_ptr[16b](SMEM_ADDR_A) o ((_128,_16),_1,_4):((_64,_1),_0,_16)",
		"tmem_[32b](0x0000.0000) o ((_128,_256),_1,_1):((_65536,_1),_0,_0)", "ArithTuple(_0,0) o (_128,_64,4):(_1@1,_1@0,_64@0)",
		"select<1,3>(A)", "upcast<N>(layout<1,0>(A))", "X = replace<2>(A, 7:1)\nassert size<_1>(X) == 8\n", "get<1>>(A)", "f<1(A)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, errs := ParseFile("fuzz.cute", []byte(src))
		for _, e := range errs {
			if strings.Contains(e.Message, "internal parser error") {
				t.Fatalf("%q: %s", src, e.Message)
			}
			if e.Range.Pos.Offset < 0 || int(e.Range.End.Offset) > len(src) || e.Range.Pos.Offset > e.Range.End.Offset {
				t.Fatalf("%q: error range %+v outside the input", src, e.Range)
			}
		}
		types, terrs := FindMLIRTypes([]byte(src))
		for _, e := range append(terrs, errs...) {
			if strings.Contains(e.Message, "internal parser error") || e.Range.Pos.Offset < 0 || int(e.Range.End.Offset) > len(src) {
				t.Fatalf("%q: %+v", src, e)
			}
		}
		for _, m := range types {
			if m.Pos.Offset < 0 || int(m.End.Offset) > len(src) || !strings.HasPrefix(src[m.Pos.Offset:], "!cute.") {
				t.Fatalf("%q: MLIR type at %+v", src, m.Range)
			}
		}
		printed := PrintFile(file, Cute)
		again, _ := ParseFile("fuzz.cute", []byte(printed))
		if len(again.Statements) != len(file.Statements) {
			t.Fatalf("%q: formatting changed the statement count:\n%s", src, printed)
		}
		if twice := PrintFile(again, Cute); twice != printed {
			t.Fatalf("%q: formatting twice changes\n%s\ninto\n%s", src, printed, twice)
		}
		n, err := ParseDescriptor(src)
		if err != nil {
			if strings.Contains(err.Message, "internal parser error") {
				t.Fatalf("%q: %s", src, err.Message)
			}
			return
		}
		// A sheet of one expression line reads it as ParseDescriptor does.
		if !strings.ContainsAny(src, "\n#=") && !strings.Contains(src, "//") && !strings.HasPrefix(strings.TrimSpace(src), "assert") {
			if len(file.Statements) != 1 {
				t.Fatalf("%q: %d statements", src, len(file.Statements))
			}
			es, ok := file.Statements[0].(*ExprStmt)
			if !ok || !Equal(es.X, n) {
				t.Fatalf("%q: the sheet reads %q, the descriptor parser %q", src, Print(file.Statements[0], Cute), Print(n, Cute))
			}
		}
		for _, style := range []Style{Cute, Pycute, MLIR} {
			out := Print(n, style)
			back, err := ParseDescriptor(out)
			if err != nil {
				t.Fatalf("%q printed in %v style as %q does not parse: %v", src, style, out, err)
			}
			var same bool
			switch style {
			case Cute:
				same = Equal(n, back)
			case Pycute:
				same = EqualIgnoringStatic(n, back)
			default:
				same = EqualIgnoringStatic(unwrapMLIR(n), unwrapMLIR(back))
			}
			if !same {
				t.Fatalf("%q: %v style %q parses back to a different AST (%q)", src, style, out, Print(back, style))
			}
		}
	})
}
