package scan

import (
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Summary is what the footers say about a column over the whole table,
// for answering COUNT/MIN/MAX without reading pages.
type Summary struct {
	// Rows is the table's row count; Nulls the column's null count.
	Rows, Nulls int64
	// Min and Max are the smallest and largest non-null values (Go values
	// by logical type), nil when the column has none.
	Min, Max any
	// MinMaxKnown reports that Min and Max are exact, not bounds: every
	// row group had exact statistics (and, for floats, no NaN).
	MinMaxKnown bool
}

// Summarize computes a column's Summary from footers only. ok is false
// when the statistics cannot answer (missing, truncated, nested, ...).
func (t *Table) Summarize(name string) (sum Summary, ok bool, err error) {
	col := t.Column(name)
	if col == nil {
		return sum, false, errorf("%s: no column %q", t.Name, name)
	}
	if t.delta != nil {
		// Footers count deleted rows and name physical columns: the scan
		// answers instead.
		return sum, false, nil
	}
	sum.MinMaxKnown = true
	var minB, maxB *bound
	var ci colInfo
	for fi := range t.Files {
		f, err := t.File(fi)
		if err != nil {
			return sum, false, err
		}
		n := f.NumRows()
		sum.Rows += n
		if col.Partition {
			v := t.Files[fi].Partition[col.Name]
			if v == nil {
				sum.Nulls += n
				continue
			}
			if n > 0 {
				if sum.Min == nil || lessAny(v, sum.Min) {
					sum.Min = v
				}
				if sum.Max == nil || lessAny(sum.Max, v) {
					sum.Max = v
				}
			}
			continue
		}
		fields, err := f.ResolveColumns([]string{col.Name})
		if err != nil {
			sum.Nulls += n // the file lacks the column: NULL in its rows
			continue
		}
		fl := fields[0]
		if fl.Kind != schema.Primitive || fl.Node.MaxRep > 0 {
			return sum, false, nil
		}
		ci = describe(fl.Node)
		for rg := range f.Meta.RowGroups {
			g := &f.Meta.RowGroups[rg]
			if g.NumRows == 0 {
				continue
			}
			cc, err := f.ColumnChunk(rg, fl.Node.Column)
			if err != nil {
				return sum, false, err
			}
			md := cc.MetaData
			if md == nil || md.Statistics == nil || !md.Statistics.NullCount.Set {
				return sum, false, nil
			}
			st := md.Statistics
			sum.Nulls += st.NullCount.Value
			if st.NullCount.Value == g.NumRows {
				continue // all null: no min or max
			}
			cs := chunkStats(ci, st, md.NumValues)
			if !cs.hasMinMax || ci.dom == domNone || cs.maybeNaN {
				sum.MinMaxKnown = false
				continue
			}
			if ci.dom == domBytes && !(st.IsMinValueExact.Value && st.IsMaxValueExact.Value) {
				sum.MinMaxKnown = false
			}
			if minB == nil || cmpBound(ci.dom, &cs.min, minB) < 0 {
				m := cs.min
				minB = &m
			}
			if maxB == nil || cmpBound(ci.dom, &cs.max, maxB) > 0 {
				m := cs.max
				maxB = &m
			}
		}
		if minB != nil {
			sum.Min = boundValue(fl.Node, minB)
			sum.Max = boundValue(fl.Node, maxB)
		}
	}
	return sum, true, nil
}

func lessAny(a, b any) bool {
	c, ok := compareConst(a, b)
	return ok && c < 0
}

// boundValue turns a statistics bound back into the column's Go value.
func boundValue(n *schema.Node, b *bound) any {
	v := &vector.Vector{Len: 1}
	switch n.Physical {
	case format.Boolean:
		v.Kind, v.Bools = vector.Bool, []bool{b.i != 0}
	case format.Int32:
		v.Kind = vector.Int32
		if n.Logical != nil && n.Logical.Integer != nil && !n.Logical.Integer.IsSigned {
			v.Int32s = []int32{int32(uint32(b.u))}
		} else {
			v.Int32s = []int32{int32(b.i)}
		}
	case format.Int64:
		v.Kind = vector.Int64
		if n.Logical != nil && n.Logical.Integer != nil && !n.Logical.Integer.IsSigned {
			v.Int64s = []int64{int64(b.u)}
		} else {
			v.Int64s = []int64{b.i}
		}
	case format.Float:
		v.Kind, v.Float32s = vector.Float32, []float32{float32(b.f)}
	case format.Double:
		v.Kind, v.Float64s = vector.Float64, []float64{b.f}
	case format.ByteArray:
		v.Kind, v.Data, v.Offsets = vector.ByteArray, b.b, []int32{0, int32(len(b.b))}
	case format.FixedLenByteArray:
		if len(b.b) != n.TypeLength {
			return nil
		}
		v.Kind, v.Width, v.Data = vector.FixedLenByteArray, n.TypeLength, b.b
	default:
		return nil
	}
	return value.Primitive(n, v, 0)
}
