//go:build !linux

package main

// hugePageHeap asks for huge pages only on Linux (see lint_heap_linux.go).
func hugePageHeap(size int) (start, end uintptr) { return 0, 0 }

// hugePageBuffers is a plain allocation of size bytes here (see
// lint_heap_linux.go).
func hugePageBuffers(size int) (block []byte, advised bool) { return make([]byte, size), false }
