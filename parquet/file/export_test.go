package file

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
