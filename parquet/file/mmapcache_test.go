//go:build unix

package file_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/journal"
	"github.com/carquet-go/carquet/writer"
)

// writeEvents writes rows of the events table, uncompressed and PLAIN so
// that reads through a mapping lend its bytes.
func writeEvents(t *testing.T, path string, rows int, seed uint64) {
	t.Helper()
	sch, err := events.Schema()
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(path, sch, writer.WithCompression(format.Uncompressed), writer.WithDictionary(false),
		writer.WithEncoding(format.Plain))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(events.Generate(rows, seed)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// readTS reads the ts column of path through a mapping, and returns it
// with the address of the mapping.
func readTS(t *testing.T, path string) ([]int64, uintptr) {
	t.Helper()
	ts, base, err := mappedTS(path)
	if err != nil {
		t.Fatal(err)
	}
	return ts, base
}

func mappedTS(path string) ([]int64, uintptr, error) {
	f, err := file.OpenFile(path, file.Options{}, true)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{Columns: []string{"ts"}})
	if err != nil {
		return nil, 0, err
	}
	var ts []int64
	for {
		b, err := r.Next()
		if err == io.EOF {
			return ts, file.MappedBase(f), nil
		}
		if err != nil {
			return nil, 0, err
		}
		ts = append(ts, b.Columns[0].Int64s[:b.NumRows]...)
	}
}

// TestMappingReused opens a file through mmap again after closing it: the
// mapping is reused (no fresh page faults) and reads the same rows; a file
// replaced under the same name, or grown, is mapped anew and read as it
// is now; an idle mapping goes after its time.
func TestMappingReused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.parquet")
	writeEvents(t, path, 20_000, 1)
	want := events.Generate(20_000, 1)

	ts1, base1 := readTS(t, path)
	ts2, base2 := readTS(t, path)
	if len(ts1) != 20_000 || !equalInt64s(ts1, ts2) || !equalInt64s(ts1, want[0].Int64s[:20_000]) {
		t.Fatal("a read through a reused mapping differs")
	}
	if base1 == 0 || base1 != base2 {
		t.Fatalf("mapping at %#x then %#x: not reused", base1, base2)
	}
	if file.IdleMappings() == 0 {
		t.Fatal("no mapping kept after Close")
	}

	// Replaced by rename: another file (inode), another mapping.
	tmp := filepath.Join(dir, "new.parquet")
	writeEvents(t, tmp, 30_000, 2)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	ts3, _ := readTS(t, path)
	if !equalInt64s(ts3, events.Generate(30_000, 2)[0].Int64s[:30_000]) {
		t.Fatal("the replaced file read through the old mapping")
	}

	// Rewritten in place, larger (same inode): mapped anew at its size.
	osf, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	osf.Close()
	writeInPlace(t, path, 40_000, 3)
	ts4, _ := readTS(t, path)
	if !equalInt64s(ts4, events.Generate(40_000, 3)[0].Int64s[:40_000]) {
		t.Fatal("the file rewritten in place read wrong")
	}

	defer file.SetIdleMapTime(time.Millisecond)()
	readTS(t, path) // idle again, with the short time
	deadline := time.Now().Add(5 * time.Second)
	for file.MappingKept(path) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if file.MappingKept(path) {
		t.Fatal("the idle mapping is still kept after its time")
	}
}

// writeInPlace writes the events file over path's existing inode.
func writeInPlace(t *testing.T, path string, rows int, seed uint64) {
	t.Helper()
	tmp := path + ".w"
	writeEvents(t, tmp, rows, seed)
	b, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	osf, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer osf.Close()
	if _, err := osf.WriteAt(b, 0); err != nil {
		t.Fatal(err)
	}
}

func equalInt64s(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMappingConcurrent opens, reads and closes one file through mmap from
// several goroutines at once (run under -race): each read is whole.
func TestMappingConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.parquet")
	writeEvents(t, path, 5_000, 4)
	want := events.Generate(5_000, 4)[0].Int64s[:5_000]
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 20; i++ {
				ts, _, err := mappedTS(path)
				if err != nil {
					errs <- err.Error()
					return
				}
				if !equalInt64s(ts, want) {
					errs <- "a concurrent read differs"
					return
				}
			}
			errs <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if msg := <-errs; msg != "" {
			t.Fatal(msg)
		}
	}
}

// TestKeptMappingFreesReadersLock: a mapping kept after Close must not
// keep the readers' lock (a mapping holds its open file description, and
// an OFD lock with it), or appends could not merge row groups until it
// expired.
func TestKeptMappingFreesReadersLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock.parquet")
	writeEvents(t, path, 1000, 3)
	readTS(t, path) // opened by mmap and closed: the mapping stays idle
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ok, err := journal.TryExclusive(w)
	if err != nil {
		t.Fatal(err)
	}
	if !ok && runtime.GOOS == "linux" {
		t.Fatal("the readers' lock is still held after the mapped file was closed")
	}
	if ok {
		if err := journal.ReleaseExclusive(w); err != nil {
			t.Fatal(err)
		}
	}
	// A reader that still has the file open keeps holding it.
	f, err := file.OpenFile(path, file.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, _ := journal.TryExclusive(w); ok {
		t.Fatal("took the readers' lock exclusive while a reader had the file open")
	}
}
