//go:build !linux

package main

// physicalMemory is the machine's total RAM in bytes: 0 (unknown) where
// there is no sysinfo, so the server runs with the runtime's default.
func physicalMemory() uint64 { return 0 }
