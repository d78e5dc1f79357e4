package writer

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
)

// Compact rewrites the Parquet file at path with its rows, in order, in
// full row groups (the row group size of opts), by one Rewrite: readers
// see the old file or the new, never a mix, and appends wait. The file's
// key-value metadata is kept, columns that had bloom filters get them
// again (options given in opts win), and statistics and page indexes are
// written anew. A file whose row groups cannot be merged (no two next to
// each other fit in one) is left alone: Compact returns the number of
// rows it rewrote, 0 then.
func Compact(path string, opts ...Option) (int64, error) {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return 0, err
	}
	sch := f.Schema
	merge, keep, err := CompactOptions(f, opts...)
	f.Close()
	if err != nil || !merge {
		return 0, err
	}
	var rows int64
	err = Rewrite(path, sch, func(w *Writer) error {
		// The file as committed now that the lock is held: appends that
		// ran since it was first opened are copied too.
		g, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			return err
		}
		defer g.Close()
		if err := sameSchema(g.Schema, sch); err != nil {
			return fmt.Errorf("writer: compact %s: the file changed meanwhile: %w", path, err)
		}
		for _, kv := range g.Meta.KeyValueMetadata {
			if _, set := w.keyValue(kv.Key); !set && kv.Value.Set {
				w.SetKeyValue(kv.Key, kv.Value.Value)
			}
		}
		if err := w.CopyCompacted(g); err != nil {
			return err
		}
		rows = w.NumRows()
		return nil
	}, append(keep, opts...)...)
	if err != nil {
		return 0, err
	}
	return rows, nil
}

// CompactOptions reports whether the row groups of f can be merged into
// fuller ones with the row group size of opts, and returns the options
// that give the columns that had bloom filters in f bloom filters again
// (to be given before opts, which win).
func CompactOptions(f *file.File, opts ...Option) (merge bool, keep []Option, err error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(cfg)
	}
	for c, leaf := range f.Schema.Leaves {
		for i := range f.Meta.RowGroups {
			// ColumnChunk: f may have been opened with LazyColumns.
			cc, err := f.ColumnChunk(i, c)
			if err != nil {
				return false, nil, err
			}
			if md := cc.MetaData; md != nil && md.BloomFilterOffset.Set {
				keep = append(keep, WithBloomFilterFor(leaf.PathString(), 0, DefaultBloomFPP))
				break
			}
		}
	}
	return mergeable(f.Meta.RowGroups, cfg), keep, nil
}

// CopyCompacted writes the rows of f, in order, into full row groups:
// those full already are copied as stored, the rows of the others are
// written again.
func (w *Writer) CopyCompacted(f *file.File) error {
	for i := range f.Meta.RowGroups {
		copy := copyRowGroupRows
		if full(&f.Meta.RowGroups[i], w.cfg) {
			copy = (*Writer).CopyRowGroup
		}
		if err := copy(w, f, i); err != nil {
			return err
		}
	}
	return nil
}

// SmallRowGroups counts the row groups of meta that are not full with
// the row group size of opts (less than half of it, in rows and bytes):
// those Compact would merge when two are next to each other.
func SmallRowGroups(meta *format.FileMetaData, opts ...Option) int {
	cfg := defaultConfig()
	for _, o := range opts {
		o(cfg)
	}
	n := 0
	for i := range meta.RowGroups {
		if !full(&meta.RowGroups[i], cfg) {
			n++
		}
	}
	return n
}

// full reports whether a row group is large enough to keep as it is: at
// least half the row group size.
func full(rg *format.RowGroup, cfg *config) bool {
	return 2*rg.NumRows >= cfg.rowGroupRows || 2*rg.TotalByteSize >= cfg.rowGroupBytes
}

// mergeable reports whether two row groups next to each other, neither
// full, would fit in one of cfg's size.
func mergeable(rgs []format.RowGroup, cfg *config) bool {
	for i := 1; i < len(rgs); i++ {
		a, b := &rgs[i-1], &rgs[i]
		if !full(a, cfg) && !full(b, cfg) && a.NumRows+b.NumRows <= cfg.rowGroupRows && a.TotalByteSize+b.TotalByteSize <= cfg.rowGroupBytes {
			return true
		}
	}
	return false
}

// keyValue is the value of a key-value entry the writer will write.
func (w *Writer) keyValue(key string) (string, bool) {
	for _, kv := range w.keyValues {
		if kv.Key == key {
			return kv.Value.Value, true
		}
	}
	return "", false
}
