package lsp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// What the server reads from disk on its own (requests on documents the
// editor has not opened, workspace diagnostics) follows one rule: a regular
// file of a kind the server handles (KindOf), of at most MaxFileBytes,
// whose real path (symbolic links resolved) lies inside a workspace folder
// and outside /proc, /sys and /dev. With no workspace folder nothing is
// read from disk: only open documents are answered. A file: URI naming a
// host, or carrying a query or a fragment, is refused with an error, so a
// client cannot dress up one file as another.

// MaxFileBytes is the largest file read from disk, by the server and by the
// command line.
const MaxFileBytes = 4 << 20

// URIError is a file: URI the server refuses to read.
type URIError struct {
	URI    string
	Reason string
}

func (e *URIError) Error() string { return fmt.Sprintf("%s: %s", e.URI, e.Reason) }

// errOutside is the reason a path outside the workspace is not read.
var errOutside = errors.New("not inside a workspace folder")

// fileURIPath is the local path of a file: URI, "" with a nil error for
// any other scheme (untitled buffers and the like have no file behind
// them). The URI must name no host (but localhost), no user, no query and
// no fragment, and an absolute path.
func fileURIPath(u string) (string, error) {
	if len(u) < 5 || !strings.EqualFold(u[:5], "file:") {
		return "", nil
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return "", &URIError{u, "not a valid URI: " + err.Error()}
	}
	switch {
	case parsed.Opaque != "":
		return "", &URIError{u, "a file: URI needs an absolute path (file:///...)"}
	case parsed.User != nil:
		return "", &URIError{u, "a file: URI cannot name a user"}
	case parsed.Host != "" && !strings.EqualFold(parsed.Host, "localhost"):
		return "", &URIError{u, fmt.Sprintf("names the host %q; only local files are read", parsed.Host)}
	case parsed.RawQuery != "" || parsed.ForceQuery:
		return "", &URIError{u, "a file: URI cannot carry a query (?...)"}
	case parsed.Fragment != "" || strings.Contains(u, "#"):
		return "", &URIError{u, "a file: URI cannot carry a fragment (#...)"}
	case !strings.HasPrefix(parsed.Path, "/") || strings.ContainsRune(parsed.Path, 0):
		return "", &URIError{u, "a file: URI needs an absolute path"}
	}
	return filepath.FromSlash(parsed.Path), nil
}

// systemDirs hold files that are not files (process state, kernel tables,
// devices): never read, whatever the workspace.
var systemDirs = []string{"/proc", "/sys", "/dev"}

// within reports whether path is dir or lies under it; both are clean.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readablePath resolves path (its symbolic links followed) and returns the
// real path when the server may read it: a kind it handles, inside one of
// roots (themselves resolved), outside the system directories.
func readablePath(path string, roots []string) (string, error) {
	if len(roots) == 0 {
		return "", errors.New("no workspace folder: only open documents are read")
	}
	if KindOf(path, "") == KindUnknown {
		return "", errors.New("not a sheet or source file cute-lsp reads")
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if KindOf(real, "") == KindUnknown {
		return "", errors.New("a link to a file cute-lsp does not read")
	}
	for _, dir := range systemDirs {
		if within(real, dir) {
			return "", errors.New("a system file")
		}
	}
	for _, root := range roots {
		if r, err := filepath.EvalSymlinks(root); err == nil && within(real, r) {
			return real, nil
		}
	}
	return "", errOutside
}

// SkipError is a file that was not read, and why.
type SkipError struct {
	Path   string
	Reason string
}

func (e *SkipError) Error() string { return fmt.Sprintf("%s: skipped: %s", e.Path, e.Reason) }

// ReadRegularFile reads a regular file of at most limit bytes. It never
// blocks on a FIFO or reads a device: what is not a regular file is not
// opened, and the file is opened non-blocking and the opened descriptor
// checked again (a file swapped in after the first check is caught),
// at most limit+1 bytes are read whatever the file claims (files of /proc
// report a size of 0), and a file whose size or modification time moved
// while it was read is refused rather than returned half old, half new.
// Symbolic links are followed; callers that must not follow them resolve
// and check the path first, then use readNoFollow. A refusal is a
// *SkipError; an error from the system (missing, unreadable) is returned
// as it is.
func ReadRegularFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	return readRegular(path, limit, 0, nil)
}

// ReadRegularFileInto is ReadRegularFile reading into buf where the file
// fits its capacity: the bytes returned are then buf's, overwritten by the
// next read into it. For a caller that reads file after file and keeps
// nothing of a file's bytes once done with it (lint, whose findings are
// strings): the buffer is allocated, and the memory cleared, once, not for
// every file.
func ReadRegularFileInto(path string, limit int64, buf []byte) ([]byte, fs.FileInfo, error) {
	return readRegular(path, limit, 0, buf)
}

// ReadStattedFileInto is ReadRegularFileInto of the file at path whose
// stat (os.Stat: links followed) the caller has just taken, info: the
// stat is not taken again (lint stats every file to read the biggest
// first, and a second stat of each was 1% of its time). The opened file
// is checked against info as ReadRegularFileInto checks it against its
// own stat; a file that changed since, or that readUnchanged does not
// read, gets ReadRegularFileInto's whole check.
func ReadStattedFileInto(path string, info fs.FileInfo, limit int64, buf []byte) ([]byte, fs.FileInfo, error) {
	if !info.Mode().IsRegular() {
		return nil, nil, &SkipError{path, "not a regular file (" + fileType(info.Mode()) + ")"}
	}
	if data, ok := readUnchanged(path, info, limit, 0, buf); ok {
		return data, info, nil
	}
	return readRegular(path, limit, 0, buf)
}

// readNoFollow is ReadRegularFile on a path already resolved: a final
// symbolic link (one put there since) is refused.
func readNoFollow(path string, limit int64) ([]byte, fs.FileInfo, error) {
	return readRegular(path, limit, openNoFollow, nil)
}

func readRegular(path string, limit int64, flags int, buf []byte) ([]byte, fs.FileInfo, error) {
	// A device is not even opened (opening one can act: a tape rewinds, a
	// modem dials); the fstat below catches a file swapped in since.
	stat := os.Stat
	if flags&openNoFollow != 0 {
		stat = os.Lstat
	}
	info, err := stat(path)
	if err != nil {
		return nil, nil, err
	} else if !info.Mode().IsRegular() {
		return nil, nil, &SkipError{path, "not a regular file (" + fileType(info.Mode()) + ")"}
	}
	// The common case (a file that is as stat'ed and stays so) in four
	// system calls (readUnchanged); anything else, the whole check below.
	if data, ok := readUnchanged(path, info, limit, flags, buf); ok {
		return data, info, nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock|flags, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, &SkipError{path, "not a regular file (" + fileType(before.Mode()) + ")"}
	}
	if before.Size() > limit {
		return nil, nil, &SkipError{path, fmt.Sprintf("%d bytes, over the limit of %d", before.Size(), limit)}
	}
	data, err := readSizedInto(f, before.Size(), limit, buf)
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > limit {
		return nil, nil, &SkipError{path, fmt.Sprintf("grew past the limit of %d bytes while read", limit)}
	}
	after, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		return nil, nil, &SkipError{path, "changed while it was read"}
	}
	return data, after, nil
}

// readSized reads f to its end, at most limit+1 bytes, into a buffer sized
// from size, the file's size when opened: a file that did not change is
// read in one buffer, without io.ReadAll's doubling from 512 bytes and its
// copies (4% of lint's CPU); one that grew grows the buffer as ReadAll would.
func readSized(f io.Reader, size, limit int64) ([]byte, error) {
	return readSizedInto(f, size, limit, nil)
}

// readSizedInto is readSized into buf where size+1 bytes fit its capacity.
func readSizedInto(f io.Reader, size, limit int64, buf []byte) ([]byte, error) {
	data := buf[:0]
	if int64(cap(buf)) < min(size, limit)+1 {
		data = make([]byte, 0, min(size, limit)+1) // +1: the read that finds the end needs room
	}
	r := io.LimitReader(f, limit+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// fileType names what a non-regular file is.
func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "irregular"
}
