package file_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

// nullCountFile writes 400 rows with data page v2: a list of FLOAT16 with
// null lists, empty lists and null elements, and a flat optional FLOAT16.
func nullCountFile(t *testing.T, createdBy string) []byte {
	t.Helper()
	sch, err := writer.NewSchema(writer.List("l", writer.Float16("x")), writer.Float16("f"))
	if err != nil {
		t.Fatal(err)
	}
	var buf writer.Buffer
	w, err := writer.New(&buf, sch, writer.WithDataPageVersion(2), writer.WithCompression(format.Snappy),
		writer.WithDictionary(false), writer.WithPageRowLimit(40), writer.WithCreatedBy(createdBy))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		var l, f any
		switch i % 9 {
		case 0:
		case 1:
			l = []any{}
		default:
			l = []any{float32(i), nil}
		}
		if i%4 != 0 {
			f = float32(i) / 8
		}
		if err := w.WriteRow(l, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(buf.Bytes())
}

// setNumNulls rewrites the num_nulls of every v2 data page of a column in
// place (the new count must take as many bytes in the header).
func setNumNulls(t *testing.T, data []byte, col int, nulls int32) {
	t.Helper()
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for rg := range f.NumRowGroups() {
		c, err := f.Chunk(rg, col)
		if err != nil {
			t.Fatal(err)
		}
		oi, err := c.OffsetIndex()
		if err != nil || oi == nil {
			t.Fatalf("offset index: %v", err)
		}
		for _, loc := range oi.PageLocations {
			var h format.PageHeader
			n, err := format.Unmarshal(data[loc.Offset:], &h)
			if err != nil || h.DataPageHeaderV2 == nil {
				t.Fatalf("page at %d: %v, %+v", loc.Offset, err, h)
			}
			h.DataPageHeaderV2.NumNulls = nulls
			enc := format.Marshal(nil, &h)
			if len(enc) != n {
				t.Fatalf("page at %d: header of %d bytes rewritten in %d", loc.Offset, n, len(enc))
			}
			copy(data[loc.Offset:], enc)
			pages++
		}
	}
	if pages < 2 {
		t.Fatalf("%d pages rewritten", pages)
	}
}

// TestV2NullCounts: the values of a v2 data page are counted from its
// definition levels, as other readers do, not taken from num_nulls. A list
// column whose headers leave out the null and empty lists (as Arrow C++
// writes a fixed-width leaf under a list: this read used to fail with "N
// values of 2 bytes do not fit in M bytes"), and -1 from parquet-java
// before 1.18, read as written; any other difference stays corruption.
func TestV2NullCounts(t *testing.T) {
	const carquet, parquetMR = "carquet test", "parquet-mr version 1.13.1 (build db4183109d5b734ec5930d870cdae161e408ddba)"
	want, err := readDigest(nullCountFile(t, carquet), "v2nulls")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		createdBy string
		col       int
		nulls     int32
		err       string // "" when the file must read as written
	}{
		{"list undercount", carquet, 0, 0, ""},
		{"list -1 from parquet-mr", parquetMR, 0, -1, ""},
		{"flat -1 from parquet-mr", parquetMR, 1, -1, ""},
		{"flat undercount", carquet, 1, 0, "header says 0 nulls"},
		{"flat overcount", carquet, 1, 39, "header says 39 nulls"},
		{"list overcount", carquet, 0, 60, "header says 60 nulls"},
		{"flat -1 from another writer", carquet, 1, -1, "header says -1 nulls"},
		{"flat -1 from parquet-mr 1.18", "parquet-mr version 1.18.0 (build 1)", 1, -1, "header says -1 nulls"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := nullCountFile(t, c.createdBy)
			setNumNulls(t, data, c.col, c.nulls)
			got, err := readDigest(data, "v2nulls")
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("read: %v", err)
			case c.err == "" && got != want:
				t.Fatalf("read other values")
			case c.err != "" && (err == nil || !errors.Is(err, file.ErrCorrupt) || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("err = %v, want ErrCorrupt saying %q", err, c.err)
			}
		})
	}
}
