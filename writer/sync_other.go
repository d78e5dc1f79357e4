//go:build !linux

package writer

import "os"

// syncData makes f's data durable (fsync where fdatasync is missing).
func syncData(f *os.File) error { return f.Sync() }
