package file_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/journal"
	"github.com/carquet-go/carquet/writer"
)

// TestZeroCopyMmap reads a required, uncompressed, PLAIN column through a
// memory mapping: batches must borrow the mapped bytes and equal a normal read.
func TestZeroCopyMmap(t *testing.T) {
	sch, err := events.Schema()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "plain.parquet")
	w, err := writer.Create(path, sch, writer.WithCompression(format.Uncompressed), writer.WithDictionary(false),
		writer.WithEncoding(format.Plain), writer.WithDataPageSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(events.Generate(50_000, 3)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	read := func(mmap bool) (ts []int64, amounts []float64, borrowed int) {
		f, err := file.OpenFile(path, file.Options{}, mmap)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := f.NewReader(file.ReaderOptions{Columns: []string{"ts", "amount"}, BatchSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		eachBatch(t, r, func(b *file.Batch) {
			if b.Columns[0].Borrowed {
				borrowed++
			}
			ts = append(ts, b.Columns[0].Int64s[:b.NumRows]...)
			amounts = append(amounts, b.Columns[1].Float64s[:b.NumRows]...)
		})
		return
	}
	ts1, a1, _ := read(false)
	ts2, a2, borrowed := read(true)
	if !reflect.DeepEqual(ts1, ts2) || !reflect.DeepEqual(a1, a2) || len(ts1) != 50_000 {
		t.Fatal("mmap read differs from a normal read")
	}
	if borrowed == 0 {
		t.Fatal("no batch was lent out of the mapping")
	}
	t.Logf("%d of %d batches zero-copy", borrowed, len(ts1)/1000)
}

// TestWriterFooterIndex checks that carquet's files carry the footer
// index, that lazy opening uses it, and that it can be turned off.
func TestWriterFooterIndex(t *testing.T) {
	sch, err := events.Schema()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "e.parquet")
		w, err := writer.Create(path, sch, writer.WithFooterIndex(on), writer.WithRowGroupRows(300))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBatch(events.Generate(1000, 5)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f, err := file.OpenFile(path, file.Options{LazyColumns: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		if f.HasFooterIndex() != on {
			t.Fatalf("footer index on=%v: found %v", on, f.HasFooterIndex())
		}
		cc, err := f.ColumnChunk(2, 3)
		if err != nil || cc.MetaData == nil || cc.MetaData.PathInSchema[0] != "amount" {
			t.Fatalf("column chunk (2, 3): %+v %v", cc, err)
		}
		f.Close()
	}
}

// TestOpenAtCommittedLength: while an append's journal exists, OpenFile
// sees the file as it was before the append, whatever was written since.
func TestOpenAtCommittedLength(t *testing.T) {
	sch, err := events.Schema()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "e.parquet")
	w, err := writer.Create(path, sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(events.Generate(500, 1)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	osf, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := osf.Stat()
	n, crc, err := journal.TailCRC(osf, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	j := journal.Journal{OldSize: st.Size(), TailLen: n, TailCRC: crc}
	if err := os.WriteFile(path+journal.Suffix, j.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	// An append half written: row group bytes, no footer yet.
	if _, err := osf.WriteAt([]byte("half an append, no footer"), st.Size()); err != nil {
		t.Fatal(err)
	}
	osf.Close()
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatalf("open during an append: %v", err)
	}
	if f.NumRows() != 500 {
		t.Fatalf("%d rows, want the 500 committed", f.NumRows())
	}
	f.Close()
}
