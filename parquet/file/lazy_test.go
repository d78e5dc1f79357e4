package file

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/format"
)

// withFooterIndex rewrites a file's footer with carquet's footer index.
func withFooterIndex(t *testing.T, data []byte) []byte {
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	footer := data[len(data)-8-n : len(data)-8]
	var fm format.FileMetaData
	if _, err := format.Unmarshal(footer, &fm); err != nil {
		t.Fatal(err)
	}
	if fm.Extension != nil {
		return nil
	}
	indexed, err := format.AddFooterIndex(format.Marshal(nil, &fm))
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), data[:len(data)-8-n]...)
	out = append(out, indexed...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(indexed)))
	return append(out, "PAR1"...)
}

func TestLazyColumnsReadTheSame(t *testing.T) {
	for _, name := range []string{"alltypes_plain.parquet", "nested_maps.snappy.parquet", "alltypes_tiny_pages.parquet",
		"nullable.impala.parquet", "data_index_bloom_encoding_stats.parquet", "repeated_no_annotation.parquet"} {
		data, err := os.ReadFile(filepath.Join(testfiles.Dir(t, "data"), name))
		if err != nil {
			t.Fatal(err)
		}
		eager, err := Open(bytes.NewReader(data), int64(len(data)), Options{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		want := readAll(t, eager, 100)
		for _, variant := range []struct {
			label string
			data  []byte
		}{{"lazy", data}, {"lazy+index", withFooterIndex(t, data)}} {
			if variant.data == nil {
				continue
			}
			f, err := Open(bytes.NewReader(variant.data), int64(len(variant.data)), Options{Name: name, LazyColumns: true})
			if err != nil {
				t.Fatalf("%s %s: %v", name, variant.label, err)
			}
			if variant.label == "lazy+index" && f.index == nil {
				t.Fatalf("%s: footer index not found", name)
			}
			if f.Meta.RowGroups[0].Columns != nil {
				t.Fatalf("%s %s: columns decoded eagerly", name, variant.label)
			}
			if got := readAll(t, f, 100); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s: lazy read differs", name, variant.label)
			}
			for c := range f.Schema.Leaves {
				cc, err := f.ColumnChunk(0, c)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(*cc, eager.Meta.RowGroups[0].Columns[c]) {
					t.Fatalf("%s %s: column chunk %d differs", name, variant.label, c)
				}
			}
		}
	}
}

// TestCompactColumnsEveryFile opens every conformance file both ways —
// column chunks decoded into structs, and (LazyColumns without a footer
// index) into compact records — and checks that every column chunk built
// from a record is the one decoded into a struct, and that a file one way
// refuses is refused the other way too (at open or at its column chunk).
func TestCompactColumnsEveryFile(t *testing.T) {
	var names []string
	for _, sub := range []string{"data", "bad_data", "shredded_variant"} {
		m, _ := filepath.Glob(filepath.Join(testfiles.Dir(t, sub), "*.parquet"))
		names = append(names, m...)
	}
	compacted := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		eager, eagerErr := Open(bytes.NewReader(data), int64(len(data)), Options{Name: name})
		f, err := Open(bytes.NewReader(data), int64(len(data)), Options{Name: name, LazyColumns: true})
		if err != nil {
			if eagerErr == nil {
				t.Fatalf("%s: compact open fails (%v), eager open does not", name, err)
			}
			continue
		}
		if f.index == nil && len(f.Meta.RowGroups) > 0 && len(f.chunks) == 0 {
			t.Fatalf("%s: no compact records", name)
		}
		if len(f.chunks) > 0 {
			compacted++
		}
		failed := false
		for rg := range f.Meta.RowGroups {
			for c := range f.Schema.Leaves {
				cc, err := f.ColumnChunk(rg, c)
				if err != nil {
					if eagerErr == nil {
						t.Fatalf("%s (%d, %d): %v", name, rg, c, err)
					}
					failed = true
					continue
				}
				if eagerErr == nil && !reflect.DeepEqual(*cc, eager.Meta.RowGroups[rg].Columns[c]) {
					t.Fatalf("%s: column chunk (%d, %d) differs:\n%+v\n%+v", name, rg, c, *cc, eager.Meta.RowGroups[rg].Columns[c])
				}
			}
		}
		if eagerErr != nil && !failed {
			t.Fatalf("%s: eager open fails (%v), compact open and every column chunk do not", name, eagerErr)
		}
	}
	if compacted < 80 {
		t.Fatalf("only %d of %d files had compact records", compacted, len(names))
	}
}

// TestLazyColumnChunkConcurrent asks for every column chunk of a file
// opened with LazyColumns from several goroutines at once (run under
// -race): each gets the same chunk, built once, equal to the eager one.
func TestLazyColumnChunkConcurrent(t *testing.T) {
	name := filepath.Join(testfiles.Dir(t, "data"), "alltypes_tiny_pages.parquet")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	eager, err := Open(bytes.NewReader(data), int64(len(data)), Options{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range [][]byte{data, withFooterIndex(t, data)} {
		f, err := Open(bytes.NewReader(variant), int64(len(variant)), Options{Name: name, LazyColumns: true})
		if err != nil {
			t.Fatal(err)
		}
		cols := len(f.Schema.Leaves)
		got := make([][]*format.ColumnChunk, 4)
		var wg sync.WaitGroup
		for g := range got {
			got[g] = make([]*format.ColumnChunk, cols)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range cols {
					c := (k*7 + g*3) % cols
					cc, err := f.ColumnChunk(0, c)
					if err != nil {
						t.Error(err)
						return
					}
					got[g][c] = cc
				}
			}()
		}
		wg.Wait()
		for c := range cols {
			for g := range got {
				if got[g][c] != got[0][c] {
					t.Fatalf("column %d built more than once", c)
				}
			}
			if !reflect.DeepEqual(*got[0][c], eager.Meta.RowGroups[0].Columns[c]) {
				t.Fatalf("column %d differs from the eager decode", c)
			}
		}
	}
}
