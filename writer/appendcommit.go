package writer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/carquet-go/carquet/parquet/journal"
)

// How an append's bytes reach the file and how it commits (the steps are
// in doc.go). An append whose bytes fit in maxBufferedTail is held in
// memory until Close: its journal then records the new length and the
// CRC of all the bytes it is about to write, so that a crash after they
// are in the file, synced, keeps them, and the append commits with two
// syncs (journal, file) instead of three, its journal emptied without a
// sync. A larger append writes its journal when the buffer fills and
// streams the rest, as before: three syncs, the last the commit.

// maxBufferedTail bounds the bytes an append holds in memory before it
// writes its journal and streams. Past a few MiB the third sync costs
// little beside the writing. A variable so that tests reach both ways.
var maxBufferedTail = 4 << 20

// tailSink takes the writer's bytes from the cut on: in memory until
// they pass maxBufferedTail, then, once spill has written the journal
// and them, straight to the file.
type tailSink struct {
	a    *appendFile
	buf  []byte
	file io.Writer // set by spill
}

func (s *tailSink) Write(p []byte) (int, error) {
	if s.file == nil && len(s.buf)+len(p) <= maxBufferedTail {
		s.buf = append(s.buf, p...)
		return len(p), nil
	}
	if s.file == nil {
		if err := s.a.spill(); err != nil {
			return 0, err
		}
	}
	return s.file.Write(p)
}

// begin places the append's first bytes, when the writer has some to
// write: at reclaimCut when the readers' lock can be had (only at Close,
// so that readers never wait long for it), else over the old footer. It
// saves the bytes from there to the old end, for the journal, and sends
// the writer's bytes to a tailSink.
func (a *appendFile) begin(atClose bool) error {
	a.cut = a.footerStart
	if atClose && (a.merged || a.reclaimCut < a.footerStart) {
		ok, err := journal.TryExclusive(a.f)
		if err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		if a.exclusive = ok; ok {
			a.cut = a.reclaimCut
		}
	}
	if !a.exclusive {
		// Readers that may have the file open check, after reading a
		// footer, that its length did not change: the new file must be
		// longer than the old.
		a.w.minEnd = a.size + 1
	}
	a.w.oldEnd = a.size
	a.saved = make([]byte, a.size-a.cut)
	if _, err := a.f.ReadAt(a.saved, a.cut); err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	var err error
	if a.tailLen, a.tailCRC, err = journal.TailCRC(a.f, a.cut); err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	a.sink = &tailSink{a: a}
	a.w.out = &countingWriter{bw: bufio.NewWriterSize(a.sink, 1<<16), off: a.cut}
	return nil
}

// journal is the append's journal record; newBytes, when not nil, are all
// the bytes it writes from the cut.
func (a *appendFile) journal(newBytes []byte) journal.Journal {
	j := journal.Journal{OldSize: a.size, Cut: a.cut, Saved: a.saved, TailLen: a.tailLen, TailCRC: a.tailCRC}
	if newBytes != nil {
		j.NewSize = a.cut + int64(len(newBytes))
		j.NewCRC = journal.Checksum(newBytes)
	}
	return j
}

// writeBytes writes the journal j, synced, then b at the cut.
func (a *appendFile) writeBytes(j journal.Journal, b []byte) error {
	if err := writeJournal(a.path, j); err != nil {
		return fmt.Errorf("writer: journal for %s: %w", a.path, err)
	}
	a.begun = true
	if _, err := a.f.Seek(a.cut, io.SeekStart); err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	a.sink.file = hooked(a.f)
	if _, err := a.sink.file.Write(b); err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	return nil
}

// spill turns an append too large to hold into a streamed one: its
// journal without the new bytes' CRC, then what was held.
func (a *appendFile) spill() error {
	b := a.sink.buf
	a.sink.buf = nil
	return a.writeBytes(a.journal(nil), b)
}

func (a *appendFile) release() {
	if a.exclusive {
		journal.ReleaseExclusive(a.f)
	}
	if a.marked {
		journal.UnmarkAppending(a.f)
	}
	unlockFile(a.f)
	a.f.Close()
}

// finalize commits or rolls back the append (see doc.go).
func (a *appendFile) finalize(commit bool) error {
	defer a.release()
	if a.sink == nil {
		return nil // nothing was written
	}
	var err error
	if commit {
		if err = a.commit(); err == nil {
			a.noteCommitted()
			return nil
		}
	}
	if a.begun {
		if rerr := a.rollBack(); rerr != nil {
			rerr = fmt.Errorf("writer: roll back append to %s: %w", a.path, rerr)
			if err != nil {
				return errors.Join(err, rerr)
			}
			return rerr
		}
	}
	if err != nil {
		return fmt.Errorf("%w (%s)", err, a.w.undone)
	}
	return nil
}

// rollBack puts back the bytes the append overwrote and cuts off the
// ones it added, then empties the journal.
func (a *appendFile) rollBack() error {
	j := journal.Journal{OldSize: a.size, Cut: a.cut, Saved: a.saved}
	if err := j.Restore(a.f); err != nil {
		return err
	}
	return clearJournal(a.path)
}

// commit makes the new end durable and empties the journal. An append
// still held in memory writes its journal with the new bytes' CRC first:
// once the file is synced it has landed, and the journal is emptied
// without a sync (where readers can see that no appender runs: the
// appenders' mark). Any error leaves the append to be rolled back.
func (a *appendFile) commit() error {
	landing := a.sink.file == nil
	if landing {
		b := a.sink.buf
		a.sink.buf = nil
		if err := a.writeBytes(a.journal(b), b); err != nil {
			return err
		}
	}
	end := a.w.out.off
	if end < a.size {
		// Merged row groups can take less room than they did.
		if err := a.f.Truncate(end); err != nil {
			return fmt.Errorf("writer: %w", err)
		}
	}
	if err := syncData(a.f); err != nil {
		return fmt.Errorf("writer: sync %s: %w", a.path, err)
	}
	if landing && a.marked {
		// Committed. An emptying that fails leaves a journal of an
		// append that landed, which readers and recovery keep.
		emptyJournal(a.path, false)
		return nil
	}
	return clearJournal(a.path)
}

// noteCommitted records, for Writer.Committed, the file and its journal
// as the append leaves them, before it lets go of the lock. A stat that
// fails leaves nil: nothing is known.
func (a *appendFile) noteCommitted() {
	st, err := a.f.Stat()
	if err != nil {
		return
	}
	jst, err := os.Stat(a.path + JournalSuffix)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
	a.w.appended = [2]os.FileInfo{st, jst}
}
