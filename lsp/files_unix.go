//go:build unix

package lsp

import "syscall"

// Open flags for files read on the server's own initiative: O_NONBLOCK so
// that opening a FIFO returns at once instead of waiting for a writer (the
// fstat that follows refuses it), O_NOFOLLOW so that a path resolved and
// checked a moment ago cannot be swapped for a symbolic link in between.
const (
	openNonblock = syscall.O_NONBLOCK
	openNoFollow = syscall.O_NOFOLLOW
)
