package prop

import "testing"

// Closed forms: no enumeration, whatever the size.
func BenchmarkPropertiesClosedForm(b *testing.B) {
	big := mustLayout("(65536,65536,16):(1,65536,4294967296)")
	for range b.N {
		if ok, err := IsBijective(&big); err != nil || !ok {
			b.Fatal(ok, err)
		}
		if ok, err := IsInjective(&big); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// Enumerated: injectivity of a 64K-point overlapping-stride layout.
func BenchmarkIsInjectiveEnumerated(b *testing.B) {
	l := mustLayout("(256,256):(3,5)")
	for range b.N {
		if _, err := IsInjective(&l); err != nil {
			b.Fatal(err)
		}
	}
}
