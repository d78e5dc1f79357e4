package interop

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/sqltests/internal/tables"
	"github.com/carquet-go/carquet/writer"
)

// TestDuckDBSeesStatistics writes the many_row_groups table with carquet
// and checks, through DuckDB's parquet_metadata(), that every row group's
// min, max and null count of the flat columns are the ones of the data.
func TestDuckDBSeesStatistics(t *testing.T) {
	db := openDuckDB(t)
	tbl := tables.ManyRowGroups(max(rows(), 500))
	path := tempPath(t, "stats")
	writeCarquet(t, path, tbl, codecs[1], "dict", 1)
	vals := tbl.Values()
	type stat struct {
		min, max string
		nulls    int
	}
	want := map[string]stat{} // "rg/column"
	for _, ci := range []int{0, 1, 2, 3} {
		col := tbl.Columns[ci].Field.Name()
		for start := 0; start < len(vals); start += 97 {
			rg := start / 97
			var lo, hi any
			nulls := 0
			for _, row := range vals[start:min(start+97, len(vals))] {
				x := row[ci]
				if x == nil {
					nulls++
					continue
				}
				if lo == nil || less(x, lo) {
					lo = x
				}
				if hi == nil || less(hi, x) {
					hi = x
				}
			}
			want[fmt.Sprintf("%d/%s", rg, col)] = stat{fmt.Sprint(lo), fmt.Sprint(hi), nulls}
		}
	}
	got, err := peers.ReadDuckDB(db, "SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata(?)", path)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, row := range got.Rows {
		col, _ := strconv.Unquote(row[1])
		w, ok := want[row[0]+"/"+col]
		if !ok {
			continue
		}
		lo, _ := strconv.Unquote(row[2])
		hi, _ := strconv.Unquote(row[3])
		if col == "d_double" { // DuckDB prints doubles its own way
			lo, hi = normFloat(lo), normFloat(hi)
			w.min, w.max = normFloat(w.min), normFloat(w.max)
		}
		if lo != w.min || hi != w.max || row[4] != strconv.Itoa(w.nulls) {
			t.Errorf("row group %s column %s: DuckDB sees min %q max %q nulls %s, the data has %q %q %d", row[0], col, lo, hi, row[4], w.min, w.max, w.nulls)
		}
		checked++
	}
	if checked != len(want) {
		t.Errorf("checked %d chunks of %d", checked, len(want))
	}
}

func normFloat(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func less(a, b any) bool {
	switch x := a.(type) {
	case int64:
		return x < b.(int64)
	case int32:
		return x < b.(int32)
	case float64:
		return x < b.(float64) || math.IsNaN(b.(float64))
	case string:
		return x < b.(string)
	}
	panic(fmt.Sprintf("less %T", a))
}

// TestDuckDBProbesBloomFilters writes a column with a bloom filter and
// asks DuckDB's parquet_bloom_probe() about values present in each row
// group (never excluded) and absent everywhere (mostly excluded).
func TestDuckDBProbesBloomFilters(t *testing.T) {
	db := openDuckDB(t)
	sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.String("name"))
	if err != nil {
		t.Fatal(err)
	}
	path := tempPath(t, "bloom")
	w, err := writer.Create(path, sch, writer.WithBloomFilter(1000, 0.01), writer.WithRowGroupRows(1000), writer.WithDictionary(false))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for i := 0; i < 3000; i++ {
		rows = append(rows, []any{int64(i * 7), fmt.Sprintf("name-%d", i)})
	}
	if err := w.WriteRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	probe := func(col string, v any) []string {
		tb, err := peers.ReadDuckDB(db, "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?) ORDER BY row_group_id", path, col, v)
		if err != nil {
			t.Fatalf("parquet_bloom_probe: %v", err)
		}
		out := make([]string, len(tb.Rows))
		for i, r := range tb.Rows {
			out[i] = r[1]
		}
		return out
	}
	for rg := 0; rg < 3; rg++ {
		i := rg*1000 + 123
		for _, c := range []struct {
			col string
			v   any
		}{{"id", int64(i * 7)}, {"name", fmt.Sprintf("name-%d", i)}} {
			ex := probe(c.col, c.v)
			if len(ex) != 3 {
				t.Fatalf("%s: %d row groups probed", c.col, len(ex))
			}
			if ex[rg] != "false" {
				t.Errorf("%s = %v is in row group %d, DuckDB's probe excludes it", c.col, c.v, rg)
			}
		}
	}
	excluded := 0
	for i := 0; i < 50; i++ {
		for _, e := range probe("id", int64(i*7+3)) {
			if e == "true" {
				excluded++
			}
		}
	}
	if excluded < 140 { // 150 probes of absent values at fpp 1%
		t.Errorf("DuckDB excluded only %d of 150 (row group, absent value) pairs: the bloom filters do not match DuckDB's hashing", excluded)
	}
}
