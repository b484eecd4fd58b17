//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// linkCount is the number of hard links of a file (1 when unknown).
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives the replacement the replaced file's owner and group, as
// far as the process may (root may; others keep their own, which is the
// owner anyway when they could write the file).
func keepOwner(f *os.File, info fs.FileInfo) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}

// idOf is the device and inode of a file.
func idOf(info fs.FileInfo) (fileID, bool) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}, true
	}
	return fileID{}, false
}
