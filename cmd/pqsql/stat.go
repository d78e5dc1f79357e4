package main

import (
	"fmt"
	"math"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/internal/statvalue"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// chunkStat is what the footer says about one column chunk.
type chunkStat struct {
	RowGroup      int    `json:"row_group"`
	NumValues     int64  `json:"num_values"`
	Min           any    `json:"min,omitempty"`
	Max           any    `json:"max,omitempty"`
	MinExact      *bool  `json:"min_exact,omitempty"`
	MaxExact      *bool  `json:"max_exact,omitempty"`
	Legacy        bool   `json:"legacy_min_max,omitempty"`
	NullCount     *int64 `json:"null_count,omitempty"`
	DistinctCount *int64 `json:"distinct_count,omitempty"`
	NaNCount      *int64 `json:"nan_count,omitempty"`
	Statistics    bool   `json:"statistics"`
	ColumnIndex   bool   `json:"column_index"`
	OffsetIndex   bool   `json:"offset_index"`
	BloomFilter   bool   `json:"bloom_filter"`
	BloomBytes    int32  `json:"bloom_filter_length,omitempty"`
	minV, maxV    any
}

// columnStat sums a column's chunks over the row groups.
type columnStat struct {
	Path          string      `json:"path"`
	PhysicalType  string      `json:"physical_type"`
	SQLType       string      `json:"sql_type"`
	Min           any         `json:"min,omitempty"`
	Max           any         `json:"max,omitempty"`
	NullCount     *int64      `json:"null_count,omitempty"`
	DistinctCount *int64      `json:"distinct_count,omitempty"`
	NaNCount      *int64      `json:"nan_count,omitempty"`
	ColumnIndex   string      `json:"column_index"`
	BloomFilter   string      `json:"bloom_filter"`
	RowGroups     []chunkStat `json:"row_groups"`
	minV, maxV    any
}

func optPtr[T any](o format.Opt[T]) *T {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}

// statJSON is a statistics value for JSON: numbers and booleans as they
// are, everything else as its machine text.
func statJSON(v any, typ string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		return x
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return output.Float(float64(x), 32)
		}
		return x
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return output.Float(x, 64)
		}
		return x
	}
	return output.Text(v, typ, true)
}

// collectStats reads a file's footer statistics per leaf column.
func collectStats(f *file.File, leaves []*schema.Node) []*columnStat {
	var out []*columnStat
	for _, n := range leaves {
		typ := statvalue.SQLType(n)
		cs := &columnStat{Path: n.PathString(), PhysicalType: n.Physical.String(), SQLType: typ}
		var nulls, nans int64
		nullsKnown, nansKnown := true, true
		haveMin, haveMax := true, true
		ci, bf := 0, 0
		for rg := range f.Meta.RowGroups {
			cc := &f.Meta.RowGroups[rg].Columns[n.Column]
			st := chunkStat{RowGroup: rg, ColumnIndex: cc.ColumnIndexOffset.Set, OffsetIndex: cc.OffsetIndexOffset.Set}
			md := cc.MetaData
			if md == nil {
				nullsKnown, nansKnown, haveMin, haveMax = false, false, false, false
				cs.RowGroups = append(cs.RowGroups, st)
				continue
			}
			st.NumValues = md.NumValues
			st.BloomFilter = md.BloomFilterOffset.Set
			st.BloomBytes = md.BloomFilterLength.Value
			if st.ColumnIndex && st.OffsetIndex {
				ci++
			}
			if st.BloomFilter {
				bf++
			}
			if s := md.Statistics; s != nil {
				st.Statistics = true
				st.NullCount = optPtr(s.NullCount)
				st.DistinctCount = optPtr(s.DistinctCount)
				st.NaNCount = optPtr(s.NanCount)
				st.MinExact = optPtr(s.IsMinValueExact)
				st.MaxExact = optPtr(s.IsMaxValueExact)
				lo, hi, okLo, okHi, legacy := statvalue.ChunkBounds(n, s)
				st.Legacy = legacy
				if okLo {
					st.minV, st.Min = lo, statJSON(lo, typ)
				}
				if okHi {
					st.maxV, st.Max = hi, statJSON(hi, typ)
				}
			}
			if st.NullCount != nil {
				nulls += *st.NullCount
			} else {
				nullsKnown = false
			}
			if st.NaNCount != nil {
				nans += *st.NaNCount
			} else {
				nansKnown = false
			}
			// A chunk of only nulls has no bounds and does not matter.
			allNull := st.NullCount != nil && *st.NullCount == md.NumValues
			if st.minV == nil && !allNull {
				haveMin = false
			}
			if st.maxV == nil && !allNull {
				haveMax = false
			}
			if st.minV != nil && (cs.minV == nil || statvalue.Less(st.minV, cs.minV)) {
				cs.minV = st.minV
			}
			if st.maxV != nil && (cs.maxV == nil || statvalue.Less(cs.maxV, st.maxV)) {
				cs.maxV = st.maxV
			}
			cs.RowGroups = append(cs.RowGroups, st)
		}
		if !haveMin {
			cs.minV = nil
		}
		if !haveMax {
			cs.maxV = nil
		}
		cs.Min, cs.Max = statJSON(cs.minV, typ), statJSON(cs.maxV, typ)
		if nullsKnown {
			cs.NullCount = &nulls
		}
		if nansKnown {
			cs.NaNCount = &nans
		}
		if len(cs.RowGroups) == 1 {
			cs.DistinctCount = cs.RowGroups[0].DistinctCount
		}
		nrg := len(f.Meta.RowGroups)
		cs.ColumnIndex, cs.BloomFilter = presence(ci, nrg), presence(bf, nrg)
		out = append(out, cs)
	}
	return out
}

func runStat(e *env, args []string) error {
	fs := newFlags(e, "stat", "stat [-c COLS] [--row-groups] [--json] FILE",
		"Print per-column statistics from a file's footer, without reading data:\nmin and max (decoded by logical type, over every row group; empty when a\nrow group lacks them), null, distinct and NaN counts, and whether the\ncolumns have a page index (column + offset index) and bloom filters.",
		`pqsql stat data/events.parquet
		 pqsql stat -c amount --row-groups data/events.parquet
		 pqsql stat --json data/events.parquet | jq '.[] | {path, min, max}'`)
	asJSON := fs.Bool("json", false, "machine-readable output (with every row group)")
	perRG := fs.Bool("row-groups", false, "one line per column chunk")
	cols := fs.String("c", "", "columns (leaf paths or top-level names), comma-separated")
	of := fs.outputFlags("json")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	f, err := openFile(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	leaves := f.Schema.Leaves
	if names := splitColumns(*cols); names != nil {
		leaves = nil
		for _, name := range names {
			n := f.Schema.Column(name)
			if n != nil {
				leaves = append(leaves, n)
				continue
			}
			top := f.Schema.Lookup(name)
			if top == nil {
				return fmt.Errorf("stat: no column %q in %s", name, f.Name())
			}
			leaves = schema.LeavesUnder(leaves, top)
		}
	}
	stats := collectStats(f, leaves)
	if *asJSON {
		return writeJSON(e.stdout, stats)
	}
	opts, err := of.options(e)
	if err != nil {
		return err
	}
	w := output.New(e.stdout, opts)
	cnt := func(p *int64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	text := func(v any, typ string) any {
		if v == nil {
			return nil
		}
		return output.Text(v, typ, false)
	}
	if !*perRG {
		w.Begin([]output.Column{{Name: "column"}, {Name: "type"}, {Name: "min"}, {Name: "max"},
			{Name: "nulls", Type: "BIGINT"}, {Name: "distinct", Type: "BIGINT"}, {Name: "nans", Type: "BIGINT"},
			{Name: "page_index"}, {Name: "bloom"}})
		for _, s := range stats {
			w.Row([]any{s.Path, s.SQLType, text(s.minV, s.SQLType), text(s.maxV, s.SQLType), cnt(s.NullCount),
				cnt(s.DistinctCount), cnt(s.NaNCount), s.ColumnIndex, s.BloomFilter})
		}
		return w.End()
	}
	w.Begin([]output.Column{{Name: "column"}, {Name: "row_group", Type: "BIGINT"}, {Name: "values", Type: "BIGINT"},
		{Name: "min"}, {Name: "max"}, {Name: "nulls", Type: "BIGINT"}, {Name: "distinct", Type: "BIGINT"},
		{Name: "nans", Type: "BIGINT"}, {Name: "page_index"}, {Name: "bloom"}})
	for _, s := range stats {
		for _, c := range s.RowGroups {
			w.Row([]any{s.Path, int64(c.RowGroup), c.NumValues, text(c.minV, s.SQLType), text(c.maxV, s.SQLType),
				cnt(c.NullCount), cnt(c.DistinctCount), cnt(c.NaNCount), yesNo(c.ColumnIndex && c.OffsetIndex), yesNo(c.BloomFilter)})
		}
	}
	return w.End()
}
