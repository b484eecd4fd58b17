package atom

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func familyOf(name string) string {
	if i := strings.IndexByte(name, '<'); i >= 0 {
		return name[:i]
	}
	return name
}

func TestLookupSpellings(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32F16F16F32_TN"},
		{"cute::SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32F16F16F32_TN"},
		{"SM90_64x128x16_F32F16F16_SS", "SM90_64x128x16_F32F16F16_SS"},
		{"SM90_64x128x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::K>", "SM90_64x128x16_F32F16F16_SS"},
		{"SM90_64x200x32_F32E4M3E4M3_SS_TN", "SM90_64x200x32_F32E4M3E4M3_SS_TN"},
		{"SM100_MMA_F16BF16_SS<cutlass::half_t,cutlass::half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
			"SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>"},
	} {
		a, err := LookupMMA(tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		if a.Name != tc.want {
			t.Errorf("%s: found %s, want %s", tc.query, a.Name, tc.want)
		}
	}
	for _, q := range []string{"SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T", "SM90_U32x4_STSM_N", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
		"SM80_CP_ASYNC_CACHEALWAYS<cute::uint128_t>", "UniversalCopy<uint32_t>", "SM90_TMA_LOAD<NumBitsPerTMA=65536>"} {
		if _, err := LookupCopy(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	if a, c, err := Lookup("SM75_U32x1_LDSM_N"); err != nil || a != nil || c == nil {
		t.Errorf("Lookup of a copy atom: %v %v %v", a, c, err)
	}
	if a, c, err := Lookup("SM80_8x8x4_F64F64F64F64_TN"); err != nil || a == nil || c != nil {
		t.Errorf("Lookup of an MMA atom: %v %v %v", a, c, err)
	}
}

func TestLookupSuggests(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"SM80_16x8x16_F32F16F16F32_NT", "SM80_16x8x16_F32F16F16F32_TN"},
		{"sm80_16x8x16_f32f16f16f32_tn", "SM80_16x8x16_F32F16F16F32_TN"},
		{"SM90_64x128x16_F32F16F16", "SM90_64x128x16_F32F16F16_SS"},
		{"SM75_U32x4_LDSM_T", "SM75_U32x4_LDSM_N"},
		{"SM80_CP_ASYNC_CACHEALWAYS<uint128>", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"},
	} {
		_, _, err := Lookup(tc.query)
		var nf *NotFound
		if !errors.As(err, &nf) {
			t.Errorf("%s: got %v, want a NotFound", tc.query, err)
			continue
		}
		found := false
		for _, s := range nf.Suggestion {
			found = found || s == tc.want
		}
		if !found {
			t.Errorf("%s: suggestions %v lack %s", tc.query, nf.Suggestion, tc.want)
		}
		if !strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%s: message %q", tc.query, err)
		}
	}
	_, _, err := Lookup("completely_unrelated_words_here")
	var nf *NotFound
	if !errors.As(err, &nf) || len(nf.Suggestion) != 0 {
		t.Errorf("unrelated name: %v", err)
	}
}

func TestLookupTMA(t *testing.T) {
	c, err := LookupCopy("SM90_TMA_LOAD<NumBitsPerTMA=4096>")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.SrcLayout.Format(true); got != "(_1,_4096):(_0,_1)" {
		t.Errorf("SrcLayout %s", got)
	}
	if c.NumBitsPerTMA != 4096 || len(c.PTXByRank) != 5 || !strings.HasPrefix(c.PTXByRank[1], "cp.async.bulk.tensor.2d.") {
		t.Errorf("%+v", c)
	}
	for _, bad := range []string{"SM90_TMA_LOAD", "SM90_TMA_STORE<NumBitsPerTMA=0>", "SM90_TMA_STORE<NumBitsPerTMA=x>", "SM90_TMA_STORE<4096>"} {
		_, err := LookupCopy(bad)
		var nf *NotFound
		if !errors.As(err, &nf) || nf.Hint == "" || len(nf.Suggestion) == 0 {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, _, err := Lookup("SM90_TMA_LOAD"); err == nil || !strings.Contains(err.Error(), "NumBitsPerTMA") {
		t.Errorf("Lookup(SM90_TMA_LOAD): %v", err)
	}
}

func TestLookupTypedCopy(t *testing.T) {
	for _, tc := range []struct{ query, like string }{
		{"UniversalCopy<half_t>", "UniversalCopy<uint16_t>"},
		{"UniversalCopy<cutlass::bfloat16_t>", "UniversalCopy<uint16_t>"},
		{"SM80_CP_ASYNC_CACHEALWAYS<float>", "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"},
		{"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"},
	} {
		c, err := LookupCopy(tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		want, _ := LookupCopy(tc.like)
		if c.SrcLayout.Format(true) != want.SrcLayout.Format(true) || c.PTX != want.PTX {
			t.Errorf("%s: %v, want %v", tc.query, c.SrcLayout, want.SrcLayout)
		}
	}
	for _, bad := range []string{"SM80_CP_ASYNC_CACHEALWAYS<half_t>", "SM80_CP_ASYNC_CACHEGLOBAL<float>"} {
		_, err := LookupCopy(bad)
		var nf *NotFound
		if !errors.As(err, &nf) || nf.Hint == "" {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := LookupCopy("SM80_CP_ASYNC_CACHEALWAYS"); err == nil || !strings.Contains(err.Error(), "SM80_CP_ASYNC_CACHEALWAYS<") {
		t.Errorf("bare cp.async family: %v", err)
	}
}

func TestUnwrap(t *testing.T) {
	for _, tc := range []struct{ in, op, val string }{
		{"Copy_Atom<SM75_U32x4_LDSM_N, half_t>", "SM75_U32x4_LDSM_N", "half_t"},
		{"Copy_Atom<UniversalCopy<uint128_t>,half_t>", "UniversalCopy<uint128_t>", "half_t"},
		{"MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>", "SM80_16x8x16_F32F16F16F32_TN", ""},
		{"MMA_Atom<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>>", "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", ""},
		{"SM75_U32x4_LDSM_N", "SM75_U32x4_LDSM_N", ""},
		{"Copy_Atom<", "Copy_Atom<", ""},
	} {
		op, val := Unwrap(tc.in)
		if op != tc.op || val != tc.val {
			t.Errorf("Unwrap(%q) = %q, %q; want %q, %q", tc.in, op, val, tc.op, tc.val)
		}
	}
	if _, err := LookupCopy("cute::Copy_Atom<cute::SM80_CP_ASYNC_CACHEGLOBAL<cute::uint128_t>, cutlass::half_t>"); err != nil {
		t.Error(err)
	}
	if _, err := LookupMMA("MMA_Atom<SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>>"); err != nil {
		t.Error(err)
	}
}

func TestComplete(t *testing.T) {
	got := Complete("sm75_u32x", 10)
	want := []string{"SM75_U32x1_LDSM_N", "SM75_U32x1_MOVM_T", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Complete(sm75_u32x) = %v, want %v", got, want)
	}
	if got := Complete("SM90_64x256x16_F32F16F16_", 5); len(got) != 2 {
		t.Errorf("GMMA completions: %v", got)
	}
	if got := Complete("SM80", 3); len(got) != 3 {
		t.Errorf("limit: %v", got)
	}
	if got := Complete("nothing_like_it", 3); len(got) != 0 {
		t.Errorf("no match: %v", got)
	}
}

// Asking for one kind of atom by the name of the other says so, and a
// misspelling is answered with names of the kind asked for only.
func TestNotFoundKeepsToItsKind(t *testing.T) {
	_, err := LookupCopy("SM80_16x8x16_F32F16F16F32_TN")
	if err == nil || !strings.Contains(err.Error(), `it is an MMA atom: mma_atom("SM80_16x8x16_F32F16F16F32_TN") reads it`) || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("copy atom by an MMA name: %v", err)
	}
	_, err = LookupMMA("SM75_U32x4_LDSM_N")
	if err == nil || !strings.Contains(err.Error(), "it is a copy atom") {
		t.Errorf("MMA atom by a copy name: %v", err)
	}
	_, err = LookupCopy("SM75_U32x4_LDSM_T_typo")
	var nf *NotFound
	if !errors.As(err, &nf) || len(nf.Suggestion) == 0 {
		t.Fatalf("misspelt copy atom: %v", err)
	}
	for _, s := range nf.Suggestion {
		if _, err := LookupCopy(s); err != nil {
			t.Errorf("suggestion %s is not a copy atom: %v", s, err)
		}
	}
}

// TestLookupUniversalFMA checks that UniversalFMA with any element types,
// named or template parameters, is the one catalogued atom, with the types
// as written and defaulted as CuTe's UniversalFMA<D, A = D, B = A, C = D> does.
func TestLookupUniversalFMA(t *testing.T) {
	for _, tc := range []struct{ query, d, a, b, c string }{
		{"UniversalFMA<float, float, float, float>", "float", "float", "float", "float"},
		{"UniversalFMA<float,float,float>", "float", "float", "float", "float"},
		{"MMA_Atom<cute::UniversalFMA<TC,TA,TB>>", "TC", "TA", "TB", "TC"},
		{"UniversalFMA<half_t, half_t, double, half_t>", "half_t", "half_t", "double", "half_t"},
		{"UniversalFMA<double>", "double", "double", "double", "double"},
		{"UniversalFMA<int32_t, int8_t>", "int32_t", "int8_t", "int8_t", "int32_t"},
		{"UniversalFMA<typename Tensor<TD,DLayout>::value_type>", "typenameTensor<TD,DLayout>::value_type", "typenameTensor<TD,DLayout>::value_type", "typenameTensor<TD,DLayout>::value_type", "typenameTensor<TD,DLayout>::value_type"},
	} {
		a, err := LookupMMA(tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		if a.M() != 1 || a.N() != 1 || a.K() != 1 || a.ALayout.String() != "(1,1):(0,0)" || a.CLayout.String() != "(1,1):(0,0)" {
			t.Errorf("%s: %v %v %v", tc.query, a.ShapeMNK, a.ALayout, a.CLayout)
		}
		got := []string{a.ValD.Name, a.ValA.Name, a.ValB.Name, a.ValC.Name, a.RegD.Type, a.RegC.Type}
		want := []string{tc.d, tc.a, tc.b, tc.c, tc.d, tc.c}
		if strings.Join(got, " ") != strings.Join(want, " ") || a.RegA.Count != 1 {
			t.Errorf("%s: types %v, want %v", tc.query, got, want)
		}
	}
	if a, _ := LookupMMA("UniversalFMA<half_t>"); a == nil || a.ValD.Bits != 16 || a.RegD.Bits != 16 {
		t.Errorf("UniversalFMA<half_t>: %+v", a)
	}
	if a, _ := LookupMMA("UniversalFMA<TC>"); a == nil || a.ValD.Bits != 0 || a.Name != "UniversalFMA<TC>" {
		t.Errorf("UniversalFMA<TC>: %+v", a)
	}
	for _, q := range []string{"UniversalFMA", "UniversalFMA<>", "UniversalFMA<float,,float>", "UniversalFMA<float,float,float,float,float>"} {
		var nf *NotFound
		if _, err := LookupMMA(q); !errors.As(err, &nf) || nf.Hint == "" || len(nf.Suggestion) == 0 {
			t.Errorf("%s: %v", q, err)
		}
	}
	if _, c, err := Lookup("UniversalFMA<float>"); c != nil || err != nil {
		t.Errorf("Lookup(UniversalFMA<float>): %v %v", c, err)
	}
}

func TestFMAKey(t *testing.T) {
	if got := Key(fmaFamily + "<float, float, float, float>"); got != fmaKey {
		t.Errorf("Key(UniversalFMA<float, float, float, float>) = %q, fmaKey = %q", got, fmaKey)
	}
	if !isMMA(fmaKey) {
		t.Errorf("fmaKey %q names no catalogued atom", fmaKey)
	}
}

// TestKeyShortcut checks that Key gives what it gave before isKey, over
// every catalogued name, its key, and spellings that take each path.
func TestKeyShortcut(t *testing.T) {
	names := []string{"", " ", "a b", "cute::SM80_16x8x8_F16F16F16F16_TN", "cute:", ":", "a::", "SM90_64x8x16_F16F16F16_SS<GMMA::Major::K>",
		"SM90_64x8x16_F16F16F16_SS", "SM90_64x<", "<SM90_64x", "MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>", "Copy_Atom<UniversalCopy<uint32_t>,half_t>",
		"MMA_Traits<X>", "Copy_Traits<Y>", "MMA_Atom<", "x\u00a0y", "x\u0085y", "é", "a\tb\nc\vd\fe\rf"}
	for _, n := range Names() {
		names = append(names, n, Key(n), strings.ToLower(n))
	}
	for _, n := range names {
		if got, want := Key(n), normalizeKey(n); got != want {
			t.Errorf("Key(%q) = %q, want %q", n, got, want)
		}
	}
}

func FuzzKeyShortcut(f *testing.F) {
	for _, n := range []string{"SM90_64x8x16_F16F16F16_SS<K>", "cute::X", "MMA_Atom<X>", "a b", "x\u00a0y"} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n string) {
		if got, want := Key(n), normalizeKey(n); got != want {
			t.Errorf("Key(%q) = %q, want %q", n, got, want)
		}
	})
}
