package format

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// decodeBoth decodes b as a footer with and without the decoding fast
// path, in each of the three modes (copying, aliased, lazy), and fails the
// test where results or errors differ.
func decodeBoth(t *testing.T, b []byte) {
	t.Helper()
	modes := []struct {
		name string
		fn   func([]byte, *FileMetaData) (int, error)
	}{
		{"copying", func(b []byte, fm *FileMetaData) (int, error) { return Unmarshal(b, fm) }},
		{"aliased", func(b []byte, fm *FileMetaData) (int, error) { return UnmarshalAliased(b, fm) }},
		{"lazy", UnmarshalLazy},
	}
	for _, m := range modes {
		var fast, slow FileMetaData
		nf, errf := m.fn(b, &fast)
		noFastPath = true
		ns, errs := m.fn(b, &slow)
		noFastPath = false
		if m.name == "lazy" && !sameDecode(nf, ns, errf, errs, &fast, &slow) {
			if _, err := ParseFooterIndex(b); err == nil {
				// With a footer index, lazy decoding jumps over a row
				// group's column chunks, checking the first and the last
				// against the index but not reading those between (that
				// is its point). Where bytes between them are damaged, the
				// walk without the fast path can find an error the jump
				// does not (reported when that chunk is looked up), or end
				// the list elsewhere and decode what follows differently.
				// compactAsAliased checks the full decode.
				continue
			}
		}
		if (errf == nil) != (errs == nil) || (errf != nil && errf.Error() != errs.Error()) {
			t.Fatalf("%s: fast path error %v, generated code %v", m.name, errf, errs)
		}
		if errf != nil {
			continue
		}
		if nf != ns || !reflect.DeepEqual(&fast, &slow) {
			t.Fatalf("%s: fast path and generated code decode differently", m.name)
		}
	}
	compactAsAliased(t, b)
}

// sameDecode reports whether two decodes gave the same result or error.
func sameDecode(n1, n2 int, err1, err2 error, fm1, fm2 *FileMetaData) bool {
	if err1 != nil || err2 != nil {
		return err1 != nil && err2 != nil && err1.Error() == err2.Error()
	}
	return n1 == n2 && reflect.DeepEqual(fm1, fm2)
}

// compactAsAliased decodes b with UnmarshalCompact and fails the test
// where the column chunks built from its records, or its errors, differ
// from what UnmarshalAliased decodes.
func compactAsAliased(t *testing.T, b []byte) {
	t.Helper()
	var want, got FileMetaData
	nw, errw := UnmarshalAliased(b, &want)
	chunks, ng, errg := UnmarshalCompact(b, &got, 0)
	if (errw == nil) != (errg == nil) || (errw != nil && errw.Error() != errg.Error()) {
		t.Fatalf("compact: error %v, UnmarshalAliased %v", errg, errw)
	}
	if errw != nil {
		return
	}
	if len(chunks) != len(got.RowGroups) {
		t.Fatalf("compact: %d tables for %d row groups", len(chunks), len(got.RowGroups))
	}
	for i := range got.RowGroups {
		rg := &got.RowGroups[i]
		if rg.Columns != nil {
			t.Fatalf("compact: row group %d has decoded columns", i)
		}
		if c := chunks[i]; c != nil {
			rg.Columns = make([]ColumnChunk, c.Len())
			for j := range rg.Columns {
				c.ColumnChunk(j, &rg.Columns[j])
			}
		} else if rg.ColumnsRaw != nil {
			t.Fatalf("compact: row group %d has a column list and no table", i)
		}
		rg.ColumnsRaw = nil
	}
	if nw != ng || !reflect.DeepEqual(&want, &got) {
		t.Fatalf("compact: decodes differently from UnmarshalAliased")
	}
}

func TestFastDecodeWideFooter(t *testing.T) {
	for _, r := range []int{1, 3} {
		fm := wideFooter(40, r)
		fm.RowGroups[0].Columns[3].MetaData.KeyValueMetadata = []KeyValue{{Key: "k", Value: Some("v")}}
		fm.RowGroups[0].Columns[4].MetaData.SizeStatistics = &SizeStatistics{UnencodedByteArrayDataBytes: Some(int64(9))}
		fm.RowGroups[0].Columns[5].FilePath = Some("other.parquet")
		fm.RowGroups[0].Columns[6].Extension = []byte("ext") // long-form header: generated code
		fm.Schema[2].LogicalType = &LogicalType{String: &StringType{}}
		fm.ColumnOrders = make([]ColumnOrder, 40)
		for i := range fm.ColumnOrders {
			fm.ColumnOrders[i].TypeOrder = &TypeDefinedOrder{}
		}
		fm.ColumnOrders[7] = ColumnOrder{IEEE754TotalOrder: &IEEE754TotalOrder{}}
		b := Marshal(nil, fm)
		decodeBoth(t, b)
		var back FileMetaData
		if _, err := UnmarshalAliased(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, fm) {
			t.Fatal("fast path does not decode what was encoded")
		}
		// Every truncation and every single-byte change decodes the same
		// with and without the fast path.
		for i := 0; i < len(b); i += 7 {
			decodeBoth(t, b[:i])
			c := append([]byte(nil), b...)
			c[i] ^= 0x5a
			decodeBoth(t, c)
		}
		// With the footer index, lazy decoding jumps over the column
		// chunks; single-bit errors in the index (three bits of each byte)
		// decode as the walk over them does.
		ib, err := AddFooterIndex(b)
		if err != nil {
			t.Fatal(err)
		}
		decodeBoth(t, ib)
		for i := len(b) + 4; i < len(ib); i++ {
			for bit := 0; bit < 8; bit += 3 {
				c := append([]byte(nil), ib...)
				c[i] ^= 1 << bit
				decodeBoth(t, c)
			}
		}
	}
}

// FuzzFastDecode checks the decoding fast path against the generated
// code on arbitrary footers.
func FuzzFastDecode(f *testing.F) {
	f.Add(Marshal(nil, wideFooter(3, 2)))
	if ib, err := AddFooterIndex(Marshal(nil, wideFooter(20, 3))); err == nil {
		f.Add(ib)
	}
	// The seeds of FuzzFileMetaData, real footers among them.
	files, _ := filepath.Glob("testdata/fuzz/FuzzFileMetaData/*")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
			continue
		}
		v, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			f.Fatal(name, err)
		}
		f.Add([]byte(v))
	}
	f.Fuzz(func(t *testing.T, b []byte) { decodeBoth(t, b) })
}
