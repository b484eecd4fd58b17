//go:build !linux

package main

// hugePageHeap asks for huge pages only on Linux (see lint_heap_linux.go).
func hugePageHeap(size int) (start, end uintptr) { return 0, 0 }
