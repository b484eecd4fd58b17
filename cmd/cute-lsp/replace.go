package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeTemp writes the new text into the temporary file; tests replace it
// with one that fails part way, as a full disk does.
var writeTemp = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// replaceFile replaces the file at path, whose stat before it was read is
// info, with data: written to a temporary file beside it (same directory,
// so the rename cannot cross file systems), given path's mode, flushed to
// disk, then renamed over path. Whatever fails, path keeps its old text in
// full and the temporary file is removed. A file whose size or
// modification time moved since it was read is not replaced (an editor
// saved it meanwhile).
func replaceFile(path string, data []byte, info fs.FileInfo) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeTemp(tmp, data); err != nil {
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		return err
	}
	keepOwner(tmp, info)
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	now, err := os.Stat(path)
	if err != nil {
		return err
	}
	if now.Size() != info.Size() || !now.ModTime().Equal(info.ModTime()) {
		return fmt.Errorf("changed while it was formatted")
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename is durable once the directory is flushed; a system that
	// cannot flush a directory still has the file whole, old or new.
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		dir.Sync()
		dir.Close()
	}
	return nil
}
