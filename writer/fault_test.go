package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/journal"
)

// fullDisk is a disk with room for left more bytes, shared by every sink
// it wraps: the write that does not fit writes what fits and fails with
// ENOSPC, as write(2) does on a full file system.
type fullDisk struct {
	left    int64 // -1: no limit
	written int64
}

type fullDiskWriter struct {
	d *fullDisk
	w io.Writer
}

func (fw fullDiskWriter) Write(p []byte) (int, error) {
	d := fw.d
	if d.left < 0 || int64(len(p)) <= d.left {
		n, err := fw.w.Write(p)
		d.written += int64(n)
		if d.left >= 0 {
			d.left -= int64(n)
		}
		return n, err
	}
	n, err := fw.w.Write(p[:d.left])
	d.written += int64(n)
	d.left -= int64(n)
	if err == nil {
		name := "sink"
		if f, ok := fw.w.(*os.File); ok {
			name = f.Name()
		}
		err = &os.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
	}
	return n, err
}

// withFullDisk installs d as the sink hook until the test ends.
func withFullDisk(t *testing.T, d *fullDisk) {
	t.Helper()
	sinkHook = func(w io.Writer) io.Writer { return fullDiskWriter{d, w} }
	t.Cleanup(func() { sinkHook = nil })
}

// dirState lists a directory's entries with their contents.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		name := filepath.Join(dir, e.Name())
		if base, ok := strings.CutSuffix(name, JournalSuffix); ok {
			// A journal keeps its room and the rest of older records: what
			// counts is the record it holds, if any.
			j, ok, err := journal.Read(base)
			if err != nil {
				t.Fatal(err)
			}
			m[e.Name()] = fmt.Sprintf("journal %v %+v", ok, j)
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func sameDir(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for name, b := range got {
		w, ok := want[name]
		switch {
		case !ok:
			t.Fatalf("%s: %s left behind (%d bytes)", what, name, len(b))
		case w != b:
			t.Fatalf("%s: %s changed (%d bytes, was %d)", what, name, len(b), len(w))
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			t.Fatalf("%s: %s is gone", what, name)
		}
	}
}

// limits are the byte budgets tried: every small one (the journal, the
// first page), then steps across the whole write, and its last bytes.
func limits(total int64) []int64 {
	var out []int64
	for n := int64(0); n < min(total, 40); n++ {
		out = append(out, n)
	}
	for n := int64(40); n < total; n += max(total/150, 1) {
		out = append(out, n)
	}
	for n := max(total-12, 0); n < total; n++ {
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// faultAppend appends 3 batches to path (several row groups, bloom
// filters, page indexes) and returns the first error, and whether it came
// from Close.
func faultAppend(t *testing.T, path string, abort bool) (closed bool, err error) {
	w, err := Append(path, appendSchema(t), WithRowGroupRows(70), WithPageRowLimit(20),
		WithBloomFilter(500, 0.01), WithCompression(format.Snappy))
	if err != nil {
		return false, err
	}
	for k := range 3 {
		if err := w.WriteBatch(appendBatch(int64(100+k*60), 60)); err != nil {
			if abort {
				if aerr := w.Abort(); aerr != nil {
					t.Errorf("Abort after a failed write: %v", aerr)
				}
				return false, err
			}
			return true, w.Close()
		}
	}
	return true, w.Close()
}

// checkDiskFull checks an error of a write that ran out of room: it says
// so and where, and when Close returned it, that the append was rolled
// back.
func checkDiskFull(t *testing.T, err error, closed bool, n int64, path string) {
	t.Helper()
	if err == nil {
		t.Fatalf("limit %d: no error", n)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("limit %d: error %v does not wrap ENOSPC", n, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "no space left on device") || !strings.Contains(msg, filepath.Base(path)) ||
		(closed && !strings.Contains(msg, "the append was rolled back")) {
		t.Fatalf("limit %d: error %q does not say the disk is full, where, and what became of the append", n, msg)
	}
}

// TestAppendDiskFull runs an append on a disk that fills up after n bytes,
// for many n: the append fails with ENOSPC, and the file, its directory
// and the lock are as before. The append is held in memory until Close,
// streamed from its first bytes, or streamed once it outgrows the buffer.
func TestAppendDiskFull(t *testing.T) {
	defer func(n int) { maxBufferedTail = n }(maxBufferedTail)
	for _, limit := range []int{maxBufferedTail, 0, 3000} {
		maxBufferedTail = limit
		t.Run(fmt.Sprintf("buffer %d", limit), testAppendDiskFull)
	}
}

func testAppendDiskFull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "full.parquet")
	createWith(t, path, appendSchema(t), appendBatch(0, 100), WithRowGroupRows(60))
	before := dirState(t, dir)

	// How many bytes the whole append writes (journal included).
	d := &fullDisk{left: -1}
	withFullDisk(t, d)
	if _, err := faultAppend(t, path, false); err != nil {
		t.Fatal(err)
	}
	total := d.written
	if err := os.WriteFile(path, []byte(before["full.parquet"]), 0o644); err != nil {
		t.Fatal(err)
	}
	// The journal file stays between appends, empty.
	before = dirState(t, dir)
	tries := 0
	for i, n := range limits(total) {
		d := &fullDisk{left: n}
		withFullDisk(t, d)
		closed, err := faultAppend(t, path, i%2 == 0)
		sinkHook = nil
		checkDiskFull(t, err, closed, n, path)
		sameDir(t, "after a failed append", before, dirState(t, dir))
		tries++
	}
	// The lock is free and the file takes the append once there is room.
	if _, err := faultAppend(t, path, false); err != nil {
		t.Fatalf("append with room: %v", err)
	}
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := ids(t, f); len(got) != 280 || got[279] != 279 {
		t.Fatalf("%d rows after the append", len(got))
	}
	verifyMetadata(t, f)
	t.Logf("%d limits across an append of %d bytes", tries, total)
}

// TestCreateDiskFull runs Create on a disk that fills up after n bytes: no
// file appears under the final name (nor a temporary one), and a file
// being replaced keeps its content.
func TestCreateDiskFull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.parquet")
	other := filepath.Join(dir, "old.parquet")
	createWith(t, other, appendSchema(t), appendBatch(0, 10))
	create := func(path string, abort bool) (closed bool, err error) {
		w, err := Create(path, appendSchema(t), WithRowGroupRows(70), WithPageRowLimit(20), WithBloomFilter(500, 0.01))
		if err != nil {
			return false, err
		}
		for k := range 3 {
			if err := w.WriteBatch(appendBatch(int64(k*60), 60)); err != nil {
				if abort {
					w.Abort()
					return false, err
				}
				return true, w.Close()
			}
		}
		return true, w.Close()
	}
	before := dirState(t, dir)
	d := &fullDisk{left: -1}
	withFullDisk(t, d)
	if _, err := create(path, false); err != nil {
		t.Fatal(err)
	}
	total := d.written
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	tries := 0
	for i, n := range limits(total) {
		for _, p := range []string{path, other} {
			withFullDisk(t, &fullDisk{left: n})
			closed, err := create(p, i%2 == 1)
			sinkHook = nil
			if err == nil {
				t.Fatalf("limit %d of %d: no error", n, total)
			}
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") ||
				(closed && !strings.Contains(err.Error(), "nothing was written to "+p)) {
				t.Fatalf("limit %d: error %v", n, err)
			}
			sameDir(t, "after a failed create", before, dirState(t, dir))
			tries++
		}
	}
	if _, err := create(path, false); err != nil {
		t.Fatalf("create with room: %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.HasSuffix(b, []byte("PAR1")) {
		t.Fatalf("the file made with room: %v", err)
	}
	t.Logf("%d failed creates across a file of %d bytes", tries, total)
}

// TestRemoveStaleTemps: the temporary file of a writer that died is
// removed, a live writer's is not, nor files that only look alike.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.parquet")
	w, err := Create(path, appendSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(appendBatch(0, 10)); err != nil {
		t.Fatal(err)
	}
	// What a writer killed before Close leaves: its file, unlocked.
	dead := filepath.Join(dir, ".dead.parquet.tmp-123456")
	keep := []string{".notes", ".x.parquet.tmp-abc", "y.parquet.tmp-1", ".tmp-1", ".notes.txt.tmp-123"}
	for _, name := range append(keep, filepath.Base(dead)) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, err := RemoveStaleTemps(dir)
	if err != nil || n != 1 {
		t.Fatalf("RemoveStaleTemps: %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead writer's file is still there: %v", err)
	}
	for _, name := range keep {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("the live writer: %v", err)
	}
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := ids(t, f); len(got) != 10 {
		t.Errorf("%d rows", len(got))
	}
	if n, err := RemoveStaleTemps(dir); err != nil || n != 0 {
		t.Errorf("second RemoveStaleTemps: %d, %v", n, err)
	}
}
