package lsp

import (
	"io/fs"
	"syscall"
)

// readUnchanged reads the regular file at path, whose stat is info, in
// one open, one fstat, one read and one close, where the file is that
// stat's: the fstat of the opened descriptor gives the same file (device
// and inode), size and modification time, the size is within limit, and
// a read of size+1 bytes returns size (a regular file's read stops short
// only at its end, so no second read is needed to find the end, and the
// byte more tells a file that grew). os.File would add a failing
// registration with the runtime's poller (epoll_ctl: EPERM for a regular
// file), and readRegular a read of the end and a second fstat. Where any
// of that does not hold (an error too), ok is false and readRegular reads
// the file as before: a file that changed, lies about its size (/proc) or
// fails gets the full check and its error.
func readUnchanged(path string, info fs.FileInfo, limit int64, flags int, buf []byte) (data []byte, ok bool) {
	want, _ := info.Sys().(*syscall.Stat_t)
	if want == nil || info.Size() > limit {
		return nil, false
	}
	mode := syscall.O_RDONLY | syscall.O_CLOEXEC | openNonblock | flags
	fd, err := syscall.Open(path, mode, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, mode, 0)
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var got syscall.Stat_t
	if syscall.Fstat(fd, &got) != nil || got.Mode&syscall.S_IFMT != syscall.S_IFREG ||
		got.Dev != want.Dev || got.Ino != want.Ino || got.Size != want.Size || got.Mtim != want.Mtim {
		return nil, false
	}
	size := int(got.Size)
	if cap(buf) < size+1 {
		buf = make([]byte, size+1) // +1: the byte that tells a file that grew
	}
	n, err := syscall.Read(fd, buf[:size+1])
	for err == syscall.EINTR {
		n, err = syscall.Read(fd, buf[:size+1])
	}
	if err != nil || n != size {
		return nil, false
	}
	return buf[:size], true
}
