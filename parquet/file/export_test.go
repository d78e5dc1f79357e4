package file

import (
	"time"
	"unsafe"
)

// SetWindowSize changes how much of a chunk the page iterator reads at a
// time, for tests of pages that straddle windows; it returns the undo.
func SetWindowSize(n int64) (restore func()) {
	old := windowSize
	windowSize = n
	return func() { windowSize = old }
}

// ReadRows reads every row of f with opts, each as its columns' values
// (readRows, for the external tests).
var ReadRows = readRows

// IdleMappings is how many closed files' mappings are kept for reuse.
var IdleMappings = idleMappings

// MappingKept reports whether a mapping of the file at path is kept.
var MappingKept = mappingKept

// SetIdleMapTime changes how long an idle mapping is kept; it returns the
// undo.
func SetIdleMapTime(d time.Duration) (restore func()) {
	old := setIdleMapTime(d)
	return func() { setIdleMapTime(old) }
}

// MappedBase is the address of f's mapping (0 when it is not mapped).
func MappedBase(f *File) uintptr {
	if f.mapped == nil {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(f.mapped)))
}

// SetScratchBudget sets how many bytes of buffers finished readers give
// back are kept (maxScratchBytes), and empties them.
func SetScratchBudget(n int) (restore func()) {
	drop := func() {
		scratch.Lock()
		scratch.bufs, scratch.bytes = nil, 0
		scratch.Unlock()
	}
	old := maxScratchBytes
	drop()
	maxScratchBytes = n
	return func() {
		drop()
		maxScratchBytes = old
	}
}

// DropIdleMappings unmaps the mappings kept of closed files.
var DropIdleMappings = dropIdleMappings
