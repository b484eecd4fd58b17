package grammar

import "testing"

func BenchmarkTmpNoEdit(b *testing.B) {
	src := sheet5000()
	cache := NewCache()
	ParseFileCached("bench.cute", src, cache)
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		ParseFileCached("bench.cute", src, cache)
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
