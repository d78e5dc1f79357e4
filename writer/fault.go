package writer

import "io"

// sinkHook, when set, wraps every sink the file writers write through: a
// journal, the bytes of an append, a new file made by Create. The tests
// set it to inject faults (a disk that fills up after N bytes); it is nil
// otherwise. It is not safe to change while writers run.
var sinkHook func(io.Writer) io.Writer

// hooked returns w through sinkHook.
func hooked(w io.Writer) io.Writer {
	if sinkHook != nil {
		return sinkHook(w)
	}
	return w
}
