package peers

import (
	"errors"
	"fmt"
	"io"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/variant"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqltests/internal/canon"
)

// Table is a file's rows as one library read them: top-level column
// names and, per row, each value rendered by package canon.
type Table struct {
	Columns []string
	// Types are the library's names of the column types, for messages.
	Types []string
	Rows  [][]string
}

// ReadCarquet reads every row of a file with carquet's batch reader
// (parquet/file) and renders each value through value.Get.
func ReadCarquet(path string) (*Table, error) { return ReadCarquetWith(path, true, 1000) }

// ReadCarquetWith is ReadCarquet with a choice of page checksum
// verification and batch size.
func ReadCarquetWith(path string, verifyChecksums bool, batchSize int) (*Table, error) {
	f, err := file.OpenFile(path, file.Options{SkipChecksums: !verifyChecksums}, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{BatchSize: batchSize})
	if err != nil {
		return nil, err
	}
	t := &Table{}
	for _, fl := range r.Fields() {
		t.Columns = append(t.Columns, fl.Name)
		t.Types = append(t.Types, fl.Kind.String())
	}
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		for i := 0; i < b.NumRows; i++ {
			row := make([]string, len(b.Columns))
			for c, v := range b.Columns {
				x, err := CarquetValue(b.Fields[c], v, i)
				if err != nil {
					return nil, fmt.Errorf("row %d column %s: %w", len(t.Rows), b.Fields[c].Name, err)
				}
				row[c] = canon.Value(x)
			}
			t.Rows = append(t.Rows, row)
		}
	}
}

// CarquetValue returns slot i of v as value.Get gives it, reshaped where
// the Go value alone loses what the schema says: a map becomes canon.Map
// (value.Get returns Go maps, which a struct's map[string]any would
// otherwise be mistaken for), and a Variant becomes its JSON text.
func CarquetValue(f *schema.Field, v *vector.Vector, i int) (any, error) {
	return reshape(f, value.Get(f, v, i))
}

// Reshape applies CarquetValue's reshaping to a Go value of field f, such
// as a value written with writer.WriteRows.
func Reshape(f *schema.Field, x any) (any, error) { return reshape(f, x) }

func reshape(f *schema.Field, x any) (any, error) {
	if x == nil {
		return nil, nil
	}
	if vr, ok := x.(value.Variant); ok {
		if vr.Err != nil {
			return nil, vr.Err
		}
		s, err := variant.ToJSON(vr.Metadata, vr.Value)
		if err != nil {
			return nil, err
		}
		return canon.Raw("variant:" + s), nil
	}
	var err error
	switch f.Kind {
	case schema.Struct:
		m := x.(map[string]any)
		for _, c := range f.Children {
			if m[c.Name], err = reshape(c, m[c.Name]); err != nil {
				return nil, err
			}
		}
		return m, nil
	case schema.List:
		l := x.([]any)
		for j := range l {
			if l[j], err = reshape(f.Children[0], l[j]); err != nil {
				return nil, err
			}
		}
		return l, nil
	case schema.Map:
		var out canon.Map
		add := func(k, e any) error {
			var val any
			if len(f.Children) > 1 {
				if val, err = reshape(f.Children[1], e); err != nil {
					return err
				}
			}
			key, err := reshape(f.Children[0], k)
			out = append(out, canon.Entry{Key: key, Value: val})
			return err
		}
		switch m := x.(type) {
		case map[string]any:
			for k, e := range m {
				if err := add(k, e); err != nil {
					return nil, err
				}
			}
		case map[any]any:
			for k, e := range m {
				if err := add(k, e); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	return x, nil
}
