//go:build !unix

package lsp

// Systems without O_NONBLOCK/O_NOFOLLOW rely on the fstat check alone.
const (
	openNonblock = 0
	openNoFollow = 0
)
