//go:build !unix

package main

import (
	"io/fs"
	"os"
)

func linkCount(fs.FileInfo) uint64 { return 1 }

func keepOwner(*os.File, fs.FileInfo) {}

// idOf: without inodes a link loop ends at maxLintDepth.
func idOf(fs.FileInfo) (fileID, bool) { return fileID{}, false }
