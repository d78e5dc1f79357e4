package writer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/journal"
)

// landedFile makes a file of 20 rows, then appends 5 more and brings the
// append's journal back as a crash would: the append's journal emptied
// without a sync and the emptying lost (or its appender killed after it
// wrote the bytes). It returns the file's bytes before and after the
// append.
func landedFile(t *testing.T) (path string, before, after []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "t.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 20))
	before = readFile(t, path)
	appendOne(t, path, 20, 5)
	after = readFile(t, path)
	if journal.Active(path) {
		t.Fatal("a committed append left its journal")
	}
	// Emptying overwrites the record's magic only (with a mark that it
	// is not synced yet): put it back.
	if head := readFile(t, path+JournalSuffix)[:4]; string(head) != unsyncedMagic {
		t.Fatalf("the journal starts with %q after a landed append", head)
	}
	jf, err := os.OpenFile(path+JournalSuffix, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer jf.Close()
	if _, err := jf.WriteAt([]byte("CQJ1"), 0); err != nil {
		t.Fatal(err)
	}
	j, ok, err := journal.Read(path)
	if err != nil || !ok {
		t.Fatalf("the journal does not come back: %v %v", ok, err)
	}
	if j.NewSize != int64(len(after)) {
		t.Fatalf("the journal records a new length %d, the file has %d bytes", j.NewSize, len(after))
	}
	return path, before, after
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// committedRows is the number of rows readers see, by both ways in.
func committedRows(t *testing.T, path string) int {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	n := len(ids(t, f))
	f.Close()
	snap, err := OpenCommitted(path, file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if m := len(ids(t, snap.File)); m != n {
		t.Fatalf("OpenFile sees %d rows, OpenCommitted %d", n, m)
	}
	return n
}

// TestLandedAppendKept: a journal whose append wrote all its bytes, and
// whose appender is gone, is of a committed append: readers see its rows
// without recovering, and Recover keeps them.
func TestLandedAppendKept(t *testing.T) {
	path, _, after := landedFile(t)
	if n := committedRows(t, path); n != 25 {
		t.Fatalf("readers see %d rows, want the 25 of the landed append", n)
	}
	if sz, err := CommittedSize(path); err != nil || sz != int64(len(after)) {
		t.Fatalf("CommittedSize %d %v, want %d", sz, err, len(after))
	}
	cut, err := Recover(path)
	if err != nil || cut {
		t.Fatalf("Recover: cut %v, %v", cut, err)
	}
	if journal.Active(path) {
		t.Fatal("Recover left the journal")
	}
	if !bytes.Equal(readFile(t, path), after) {
		t.Fatal("Recover changed a landed append's file")
	}
	if n := committedRows(t, path); n != 25 {
		t.Fatalf("%d rows after Recover", n)
	}
	// The next append goes on from there.
	appendOne(t, path, 25, 3)
	if n := committedRows(t, path); n != 28 {
		t.Fatalf("%d rows after another append", n)
	}
}

// TestLandedAppendNextAppend: an append that finds a landed journal keeps
// that append's rows, then adds its own.
func TestLandedAppendNextAppend(t *testing.T) {
	path, _, _ := landedFile(t)
	appendOne(t, path, 25, 3)
	if n := committedRows(t, path); n != 28 {
		t.Fatalf("%d rows, want 28", n)
	}
}

// TestTornAppendRolledBack: a journal whose append did not write all its
// bytes (one differs, or the length does) is rolled back, and readers see
// the file before it.
func TestTornAppendRolledBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		tear func(b []byte) []byte
	}{
		{"a byte differs", func(b []byte) []byte { b[len(b)-20] ^= 0x40; return b }},
		{"a byte of the first written differs", func(b []byte) []byte { b[len(b)/2+len(b)/4] ^= 1; return b }},
		{"short", func(b []byte) []byte { return b[:len(b)-1] }},
		{"long", func(b []byte) []byte { return append(b, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, before, after := landedFile(t)
			if err := os.WriteFile(path, tc.tear(bytes.Clone(after)), 0o644); err != nil {
				t.Fatal(err)
			}
			if n := committedRows(t, path); n != 20 {
				t.Fatalf("readers see %d rows, want the 20 from before the torn append", n)
			}
			cut, err := Recover(path)
			if err != nil || !cut {
				t.Fatalf("Recover: cut %v, %v", cut, err)
			}
			if !bytes.Equal(readFile(t, path), before) {
				t.Fatal("Recover did not put the file back as it was")
			}
			if n := committedRows(t, path); n != 20 {
				t.Fatalf("%d rows after Recover", n)
			}
		})
	}
}

// TestLandedWhileAppending: while an appender runs (holds the appenders'
// mark), readers see the file before its append even once all its bytes
// are written: it has not synced them yet, and may still fail and roll
// back. Once the appender is gone, they see the append.
func TestLandedWhileAppending(t *testing.T) {
	path, _, _ := landedFile(t)
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !journal.MarkAppending(w) {
		t.Skip("no open-file-description locks here")
	}
	if n := committedRows(t, path); n != 20 {
		t.Fatalf("readers see %d rows during the append, want 20", n)
	}
	journal.UnmarkAppending(w)
	if n := committedRows(t, path); n != 25 {
		t.Fatalf("readers see %d rows after the appender left, want 25", n)
	}
}

// TestLandedViewUnchanged: a reader's view of a landed append stays valid
// while the journal stays and after recovery empties it, and not once
// another append has begun.
func TestLandedViewUnchanged(t *testing.T) {
	path, _, after := landedFile(t)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := journal.Committed(path, f)
	if err != nil {
		t.Fatal(err)
	}
	if v.Journaled || v.Size != int64(len(after)) {
		t.Fatalf("view of %d bytes, journaled %v; want the %d after the append", v.Size, v.Journaled, len(after))
	}
	if same, err := journal.Unchanged(path, f, v); err != nil || !same {
		t.Fatalf("Unchanged with the journal in place: %v %v", same, err)
	}
	if _, err := Recover(path); err != nil {
		t.Fatal(err)
	}
	if same, err := journal.Unchanged(path, f, v); err != nil || !same {
		t.Fatalf("Unchanged after recovery: %v %v", same, err)
	}
	// Another append's journal (written before it overwrites a byte).
	a, err := Append(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.WriteBatch(appendBatch(25, 2)); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if same, _ := journal.Unchanged(path, f, v); same {
		t.Fatal("Unchanged after another append")
	}
}

// TestLockFileKeepsLanded: LockFile and Rewrite, which replace the file,
// first finish a landed append (keeping it) and leave no journal.
func TestLockFileKeepsLanded(t *testing.T) {
	path, _, _ := landedFile(t)
	unlock, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if journal.Active(path) {
		t.Fatal("LockFile left the journal")
	}
	if n := committedRows(t, path); n != 25 {
		t.Fatalf("%d rows after LockFile, want 25", n)
	}
	path, _, _ = landedFile(t)
	var seen int
	err = Rewrite(path, appendSchema(t), func(w *Writer) error {
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			return err
		}
		defer f.Close()
		seen = len(ids(t, f))
		return w.WriteBatch(appendBatch(0, seen))
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 25 || journal.Active(path) {
		t.Fatalf("Rewrite saw %d rows (want 25), journal left %v", seen, journal.Active(path))
	}
}

// TestAppendBufferedAndStreamed: an append held in memory and one that
// outgrows maxBufferedTail and streams write the same rows.
func TestAppendBufferedAndStreamed(t *testing.T) {
	defer func(n int) { maxBufferedTail = n }(maxBufferedTail)
	for _, limit := range []int{0, 1000, 4 << 20} {
		maxBufferedTail = limit
		path := filepath.Join(t.TempDir(), "t.parquet")
		createWith(t, path, appendSchema(t), appendBatch(0, 20))
		for k := range 4 {
			appendOne(t, path, int64(20+k*300), 300, WithRowGroupRows(100))
		}
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		got := ids(t, f)
		verifyMetadata(t, f)
		f.Close()
		if len(got) != 1220 || got[1219] != 1219 {
			t.Fatalf("limit %d: %d rows", limit, len(got))
		}
		if journal.Active(path) {
			t.Fatalf("limit %d: a journal left", limit)
		}
	}
}

// TestSettleJournal: an append empties its journal without a sync, and
// says so; LockFile (before a file is replaced) syncs that, and leaves
// the journal as it was: a transaction's COMMIT compares its size and
// time with what it saw before.
func TestSettleJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 20))
	appendOne(t, path, 20, 5)
	before := readFile(t, path+JournalSuffix)
	if string(before[:4]) != unsyncedMagic {
		t.Fatalf("the journal starts with %q after an append", before[:4])
	}
	st1, err := os.Stat(path + JournalSuffix)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	st2, err := os.Stat(path + JournalSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, path+JournalSuffix), before) || st1.Size() != st2.Size() || !st1.ModTime().Equal(st2.ModTime()) {
		t.Fatal("LockFile changed the journal")
	}
	if n := committedRows(t, path); n != 25 {
		t.Fatalf("%d rows, want 25", n)
	}
}
