package atom

import "testing"

func BenchmarkLookupMMA(b *testing.B) {
	for b.Loop() {
		if _, err := LookupMMA("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSuggest(b *testing.B) {
	for b.Loop() {
		Suggest("SM80_16x8x16_F32F16F16F32_NT", 3)
	}
}

func BenchmarkGridSM80A(b *testing.B) {
	a, _ := LookupMMA("SM80_16x8x16_F32F16F16F32_TN")
	for b.Loop() {
		if _, err := a.Grid('A'); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGridGMMAC(b *testing.B) {
	a, _ := LookupMMA("SM90_64x256x16_F32F16F16_SS")
	for b.Loop() {
		if _, err := a.Grid('C'); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildCatalog: every atom of the catalog from its generated
// tables, as MMAs and Copies build them (here with the tables in the
// caches; a run reads them from the binary once).
func BenchmarkBuildCatalog(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var c catalogBuild
		for i := range catalogMMAs {
			c.mma(i)
		}
		for i := range catalogCopies {
			c.copy(i)
		}
	}
}

// BenchmarkFirstLookup: a run's first look-up of an atom, which builds that
// atom alone (lint's: it looks up a few).
func BenchmarkFirstLookup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var c catalogBuild
		i, ok := mmaIndex(Key("SM80_16x8x16_F32F16F16F32_TN"))
		if !ok {
			b.Fatal("SM80_16x8x16_F32F16F16F32_TN not found")
		}
		c.mma(i)
	}
}
