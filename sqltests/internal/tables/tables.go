// Package tables generates the tables of the interop matrix: every
// physical and logical type carquet writes, nested structs, lists and
// maps, nulls, an empty table, and a table cut into many row groups and
// tiny pages. Rows are Go values in the forms parquet/value returns (and
// writer.WriteRows takes), from a fixed-seed PRNG, so every run writes the
// same files.
//
// Column names sort in schema order (a_..., b_...) because parquet-go's
// dynamic groups order their fields by name.
package tables

import (
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// Rand is splitmix64.
type Rand uint64

// Next returns 64 random bits.
func (r *Rand) Next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// N returns a number in [0, n).
func (r *Rand) N(n int) int { return int(r.Next() % uint64(n)) }

// Column is one top-level column: its schema field and its value generator.
type Column struct {
	Field writer.Field
	// Gen returns row i's value; nil is null (only for optional fields).
	Gen func(r *Rand, i int) any
}

// Table is a generated table.
type Table struct {
	Name    string
	Columns []Column
	Rows    int
	// Options are the writer options the table needs (row group and page
	// sizes); the matrix adds codec, encoding and page version.
	Options []writer.Option
}

// Fields returns the schema fields.
func (t *Table) Fields() []writer.Field {
	out := make([]writer.Field, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Field
	}
	return out
}

// Values generates the rows.
func (t *Table) Values() [][]any {
	r := Rand(len(t.Name))
	rows := make([][]any, t.Rows)
	for i := range rows {
		row := make([]any, len(t.Columns))
		for j, c := range t.Columns {
			row[j] = c.Gen(&r, i)
		}
		rows[i] = row
	}
	return rows
}

// nullable wraps a generator so that about one value in eight is null.
func nullable(g func(r *Rand, i int) any) func(r *Rand, i int) any {
	return func(r *Rand, i int) any {
		if r.N(8) == 0 {
			return nil
		}
		return g(r, i)
	}
}

var words = []string{"", "a", "books", "games", "música", "日本語", "zebra", "x\x00y", "a longer string that is not short at all"}

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

func timeOfDay(d time.Duration) time.Time {
	return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(d)
}

func uuidString(r *Rand) string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(r.Next())
	}
	return value.UUIDString(b)
}

func bigDecimal(r *Rand, digits, scale int) value.Decimal {
	u := new(big.Int)
	for i := 0; i < digits; i++ {
		u.Mul(u, big.NewInt(10))
		u.Add(u, big.NewInt(int64(r.N(10))))
	}
	if r.N(2) == 0 {
		u.Neg(u)
	}
	return value.Decimal{Unscaled: u, Scale: int32(scale)}
}

var specialDoubles = []float64{0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), 0.1, 1e300}

// Primitives has a column of every physical and logical type.
func Primitives(rows int) *Table {
	return &Table{Name: "primitives", Rows: rows, Columns: []Column{
		{writer.Int64("a_id").Required(), func(r *Rand, i int) any { return int64(i) }},
		{writer.Bool("b_bool"), nullable(func(r *Rand, i int) any { return r.N(2) == 0 })},
		{writer.Int32("c_int32"), nullable(func(r *Rand, i int) any { return int32(r.Next()) })},
		{writer.Int64("d_int64").Required(), func(r *Rand, i int) any { return int64(r.Next()) }},
		{writer.Integer("e_int8", 8, true), nullable(func(r *Rand, i int) any { return int8(r.Next()) })},
		{writer.Integer("f_int16", 16, true), nullable(func(r *Rand, i int) any { return int16(r.Next()) })},
		{writer.Integer("g_uint8", 8, false), nullable(func(r *Rand, i int) any { return uint8(r.Next()) })},
		{writer.Integer("h_uint16", 16, false), nullable(func(r *Rand, i int) any { return uint16(r.Next()) })},
		{writer.Integer("i_uint32", 32, false), nullable(func(r *Rand, i int) any { return uint32(r.Next()) })},
		{writer.Integer("j_uint64", 64, false), nullable(func(r *Rand, i int) any { return r.Next() })},
		{writer.Float("k_float"), nullable(func(r *Rand, i int) any {
			if r.N(10) == 0 {
				return float32(specialDoubles[r.N(len(specialDoubles))])
			}
			return float32(r.Next()%2000000)/1000 - 1000
		})},
		{writer.Double("l_double"), nullable(func(r *Rand, i int) any {
			if r.N(10) == 0 {
				return specialDoubles[r.N(len(specialDoubles))]
			}
			return float64(r.Next()%371481) / 100
		})},
		{writer.String("m_string"), nullable(func(r *Rand, i int) any { return words[r.N(len(words))] })},
		{writer.Binary("n_binary"), nullable(func(r *Rand, i int) any {
			b := make([]byte, r.N(20))
			for j := range b {
				b[j] = byte(r.Next())
			}
			return b
		})},
		{writer.FixedLen("o_fixed", 5), nullable(func(r *Rand, i int) any {
			b := make([]byte, 5)
			for j := range b {
				b[j] = byte(r.Next())
			}
			return b
		})},
		{writer.Date("p_date"), nullable(func(r *Rand, i int) any {
			return epoch.AddDate(0, 0, r.N(40000)-20000)
		})},
		{writer.Time("q_time_ms", writer.Millis, false), nullable(func(r *Rand, i int) any {
			return timeOfDay(time.Duration(r.N(86400000)) * time.Millisecond)
		})},
		{writer.Time("r_time_us", writer.Micros, true), nullable(func(r *Rand, i int) any {
			return timeOfDay(time.Duration(r.Next()%86400000000) * time.Microsecond)
		})},
		{writer.Time("s_time_ns", writer.Nanos, false), nullable(func(r *Rand, i int) any {
			return timeOfDay(time.Duration(r.Next() % 86400000000000))
		})},
		{writer.Timestamp("t_ts_ms", writer.Millis, true), nullable(func(r *Rand, i int) any {
			return time.UnixMilli(int64(r.Next()%(1<<42)) - 1<<41).UTC()
		})},
		{writer.Timestamp("u_ts_us", writer.Micros, false), nullable(func(r *Rand, i int) any {
			return time.UnixMicro(int64(r.Next()%(1<<52)) - 1<<51).UTC()
		})},
		{writer.Timestamp("v_ts_ns", writer.Nanos, true), nullable(func(r *Rand, i int) any {
			return time.Unix(0, int64(r.Next())).UTC()
		})},
		{writer.Decimal("w_dec9", 9, 2), nullable(func(r *Rand, i int) any { return bigDecimal(r, 1+r.N(9), 2) })},
		{writer.Decimal("x_dec18", 18, 4), nullable(func(r *Rand, i int) any { return bigDecimal(r, 1+r.N(18), 4) })},
		{writer.Decimal("y_dec38", 38, 10), nullable(func(r *Rand, i int) any { return bigDecimal(r, 1+r.N(38), 10) })},
		{writer.DecimalAs("z_decba", 20, 3, format.ByteArray, 0), nullable(func(r *Rand, i int) any { return bigDecimal(r, 1+r.N(20), 3) })},
		{writer.UUID("za_uuid"), nullable(func(r *Rand, i int) any { return uuidString(r) })},
		{writer.Enum("zb_enum"), nullable(func(r *Rand, i int) any { return []string{"red", "green", "blue"}[r.N(3)] })},
		{writer.JSON("zc_json"), nullable(func(r *Rand, i int) any {
			return fmt.Sprintf(`{"k":%d,"s":"%s"}`, r.N(1000), []string{"x", "y"}[r.N(2)])
		})},
		{writer.Float16("zd_float16"), nullable(func(r *Rand, i int) any {
			return []float32{0, 1, -2, 0.5, 65504, -0.25, float32(math.Inf(1))}[r.N(7)]
		})},
		{writer.Interval("ze_interval"), nullable(func(r *Rand, i int) any {
			return value.Interval{Months: uint32(r.N(100)), Days: uint32(r.N(100)), Millis: uint32(r.N(86400000))}
		})},
		{writer.Int96("zf_int96"), nullable(func(r *Rand, i int) any {
			return time.Unix(int64(r.N(4000000000))-2000000000, int64(r.N(1000000))*1000).UTC()
		})},
	}}
}

// Nested has structs, lists and maps, nullable at every level.
func Nested(rows int) *Table {
	list := func(r *Rand, n int, g func() any) []any {
		out := make([]any, r.N(n))
		for j := range out {
			out[j] = g()
		}
		return out
	}
	return &Table{Name: "nested", Rows: rows, Columns: []Column{
		{writer.Int64("a_id").Required(), func(r *Rand, i int) any { return int64(i) }},
		{writer.Group("b_struct", writer.Int32("x"), writer.String("y"), writer.Group("z", writer.Double("w"))), nullable(func(r *Rand, i int) any {
			var z any
			if r.N(3) > 0 {
				z = map[string]any{"w": float64(r.N(1000)) / 8}
			}
			var x any
			if r.N(4) > 0 {
				x = int32(r.N(1000))
			}
			return map[string]any{"x": x, "y": words[r.N(len(words))], "z": z}
		})},
		{writer.List("c_list", writer.Int64("element")), nullable(func(r *Rand, i int) any {
			return list(r, 5, func() any {
				if r.N(6) == 0 {
					return nil
				}
				return int64(r.Next() % 1000)
			})
		})},
		{writer.List("d_list_required", writer.String("element").Required()).Required(), func(r *Rand, i int) any {
			return list(r, 4, func() any { return words[r.N(len(words))] })
		}},
		{writer.List("e_list_struct", writer.Group("element", writer.Int32("p"), writer.String("q"))), nullable(func(r *Rand, i int) any {
			return list(r, 3, func() any {
				if r.N(5) == 0 {
					return nil
				}
				return map[string]any{"p": int32(r.N(100)), "q": words[r.N(len(words))]}
			})
		})},
		{writer.List("f_list_list", writer.List("element", writer.Int32("element"))), nullable(func(r *Rand, i int) any {
			return list(r, 3, func() any {
				if r.N(5) == 0 {
					return nil
				}
				return list(r, 3, func() any { return int32(r.N(100)) })
			})
		})},
		{writer.Map("g_map", writer.String("key").Required(), writer.Int32("value")), nullable(func(r *Rand, i int) any {
			m := map[string]any{}
			for j := r.N(4); j > 0; j-- {
				var v any
				if r.N(4) > 0 {
					v = int32(r.N(1000))
				}
				m[fmt.Sprintf("k%d", r.N(10))] = v
			}
			return m
		})},
		{writer.Map("h_map_int_list", writer.Int64("key").Required(), writer.List("value", writer.Double("element"))), nullable(func(r *Rand, i int) any {
			m := map[any]any{}
			for j := r.N(3); j > 0; j-- {
				m[int64(r.N(50))] = list(r, 3, func() any { return float64(r.N(100)) / 4 })
			}
			return m
		})},
	}}
}

// Empty is a table of no rows.
func Empty() *Table {
	t := Nested(0)
	t.Name = "empty"
	return t
}

// ManyRowGroups is cut into row groups of 97 rows and pages of at most
// 256 bytes or 10 rows.
func ManyRowGroups(rows int) *Table {
	return &Table{Name: "many_row_groups", Rows: rows, Options: []writer.Option{
		writer.WithRowGroupRows(97), writer.WithDataPageSize(256), writer.WithPageRowLimit(10),
	}, Columns: []Column{
		{writer.Int64("a_id").Required(), func(r *Rand, i int) any { return int64(i) }},
		{writer.Int32("b_int32"), nullable(func(r *Rand, i int) any { return int32(r.N(50)) })},
		{writer.String("c_string"), nullable(func(r *Rand, i int) any { return words[r.N(len(words))] })},
		{writer.Double("d_double").Required(), func(r *Rand, i int) any { return float64(r.N(1000)) / 16 }},
		{writer.Timestamp("e_ts", writer.Micros, true), nullable(func(r *Rand, i int) any {
			return time.UnixMicro(1699574400000000 + int64(i)*1000003).UTC()
		})},
		{writer.List("f_list", writer.Int32("element")), nullable(func(r *Rand, i int) any {
			out := make([]any, r.N(4))
			for j := range out {
				out[j] = int32(r.N(10))
			}
			return out
		})},
	}}
}
