package main

import (
	"bytes"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"unsafe"
)

// hugePageHeap asks the kernel to back the first size bytes of the heap
// with huge pages (2 MiB), where it gives them only on request
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise", Debian's and
// Ubuntu's default), and reports the range it advised (0, 0: none).
//
// Why: the runtime maps the heap in 4 KiB pages, and every page lint
// touches for the first time is a fault. Over include/cute and
// examples/cute a run faulted 12,600 of them, a fifth of its CPU time in
// the kernel; with the heap in huge pages it faults about 1,400 times
// (24 of them huge), and takes 62 ms of CPU against 75.
//
// How: the heap is allocated lowest address first, so a block of size
// bytes allocated now (mapped at once, untouched), advised MADV_HUGEPAGE
// and dropped is where the files' memory comes from once a collection has
// freed it. The collector is off while the block is allocated, so that no
// cycle starts with the block still held; turned back on, it finds the
// heap past its goal and starts one right away, in the background (a
// runtime.GC here cost 2-5 ms of CPU, most of it waiting for the sweep).
// Nothing else changes: where the advice is refused, or the memory lies
// elsewhere, the pages are the usual ones.
//
// Its tail: a slow run is not the huge pages' doing. 80 runs each over
// include/cute and examples/cute, with and without the advice (the same
// binary, interleaved, load 3-8): task-clock median 64.3 / 80.6 ms, p90
// 87.4 / 101.5, p95 98.5 / 104.8, max 134.7 / 107.4; that max spent 78
// ms in user code (contention: the median spends 47) and 59 in the kernel,
// as much as the slowest runs without it (58). /proc/vmstat over them:
// compact_stall 0 (the kernel never compacted memory to find a huge
// page), thp_fault_fallback 0, about 23 huge-page faults a run, and
// thp_split_pmd up by 9 in all. perf record -g of 20 runs each: 22% of
// the samples in the kernel with the advice (clear_page_erms 3.3%, the
// zeroing of the pages), 42% without (exc_page_fault 5.8% and the fault
// path's locks).
//
// Re-measured once lint allocated far less (about 14 MB after the block is
// freed, 20 MB with the workers' buffers, over include/cute and
// examples/cute, against 1.6 bytes per byte read before; the atom
// catalog no longer built): perf stat task-clock medians of 100
// interleaved runs each, 31.5 ms with the block against 33.9 without
// (page faults 1,144 against 3,800), 36.0 with neither the block nor
// firstBuffers (5,191 faults). The run still faults about 10 huge pages,
// 20 MB the kernel zeroes (clear_page_erms, a tenth of the CPU). A block
// of 24 or 32 MiB does the same as 64 (one collection, the same
// instructions within noise): the pages a run does not touch cost nothing.
func hugePageHeap(size int) (start, end uintptr) {
	if !hugePagesOnRequest() {
		return 0, 0
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	block := make([]byte, size)
	if syscall.Madvise(block, syscall.MADV_HUGEPAGE) != nil {
		return 0, 0
	}
	start = uintptr(unsafe.Pointer(&block[0]))
	return start, start + uintptr(size)
}

// hugePagesOnRequest reports whether the kernel backs memory with huge
// pages where madvise asks for them, and only there: read once (lint asks
// twice a run, hugePageBuffers and hugePageHeap, and a read of the sysfs
// file was 0.1% of a run's CPU samples).
var hugePagesOnRequest = sync.OnceValue(func() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(mode, []byte("[madvise]"))
})

// hugePageSize is the size of a huge page (x86-64 and arm64 with 4 KiB
// pages), and the alignment a stretch of memory needs to be backed by one.
const hugePageSize = 2 << 20

// hugePageBuffers is a block of at least size bytes whose memory the
// kernel is asked to back with huge pages (hugePageHeap), from its first
// byte: the block is aligned to a huge page and advised to a whole
// number of them. Where huge pages are not given on request it is a
// plain allocation. Advised reports whether it was advised.
//
// Why: lint's workers read their files into buffers that the biggest
// files size (2.9 and 2.8 MB over include/cute + examples/cute), allocated
// as the run starts, before the collection that frees hugePageHeap's
// block: they came from fresh memory in 4 KiB pages, which the kernel's
// copy into them faulted in one by one (perf record -e page-faults: 39% of
// the run's faults were in read's copy). Still so with lint's smaller
// heap: without them (the buffers allocated by the workers, from the
// heap after the collection) task-clock median 32.1 ms against 31.5 and
// 1,764 faults against 1,144 (100 interleaved runs each).
func hugePageBuffers(size int) (block []byte, advised bool) {
	if size <= 0 || !hugePagesOnRequest() {
		return make([]byte, max(size, 0)), false
	}
	// A whole number of huge pages, and room to align their start.
	n := (size + hugePageSize - 1) / hugePageSize * hugePageSize
	raw := make([]byte, n+hugePageSize)
	off := int((hugePageSize - uintptr(unsafe.Pointer(&raw[0]))%hugePageSize) % hugePageSize)
	block = raw[off : off+n : off+n]
	if syscall.Madvise(block, syscall.MADV_HUGEPAGE) != nil {
		return block[:size:size], false
	}
	return block[:size:size], true
}
