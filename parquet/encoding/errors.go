package encoding

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/parquet/format"
)

var (
	// ErrCorrupt is wrapped by every error about malformed encoded data.
	// It is a kind of errs.ErrCorrupt.
	ErrCorrupt = errs.New("corrupt encoded data", errs.ErrCorrupt)
	// ErrUnsupported is wrapped by errors about an encoding that does not
	// apply to a physical type, or that this package does not know. It is a kind of errs.ErrUnsupported.
	ErrUnsupported = errs.New("unsupported encoding", errs.ErrUnsupported)
)

// Error reports a problem with encoded data: which encoding, at which byte
// offset of the buffer given to Reset (or to the one-shot function).
type Error struct {
	Encoding format.Encoding
	Offset   int
	Msg      string
	Err      error // ErrCorrupt or ErrUnsupported
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.Encoding, e.Msg)
	}
	return fmt.Sprintf("%s: at byte %d: %s", e.Encoding, e.Offset, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

func corruptf(enc format.Encoding, off int, msg string, args ...any) error {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	return &Error{Encoding: enc, Offset: off, Msg: msg, Err: ErrCorrupt}
}

func unsupported(enc format.Encoding, t string) error {
	return &Error{Encoding: enc, Offset: -1, Msg: "not supported for " + t, Err: ErrUnsupported}
}

// errSkip is returned when a caller asks to skip more values than remain.
func errSkip(enc format.Encoding, n, remaining int) error {
	return &Error{Encoding: enc, Offset: -1, Msg: fmt.Sprintf("cannot skip %d values, %d remain", n, remaining), Err: ErrCorrupt}
}

func badCount(enc format.Encoding, numValues int) error {
	return &Error{Encoding: enc, Offset: -1, Msg: fmt.Sprintf("bad value count %d", numValues), Err: ErrCorrupt}
}
