//go:build !unix

package main

// cpuTime is 0 where the process's CPU time is not read: CPU ns/op prints 0.
func cpuTime() int64 { return 0 }
