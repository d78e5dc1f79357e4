package differential

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// The typed table t4 holds the column types the classes of gen.go do not
// cover: narrow and unsigned integers, FLOAT, decimals of two random
// precisions, TIME, BLOB, UUID, timestamps in milli- and nanoseconds,
// INTERVAL and nested types. Its columns are fixed (their nullability,
// NULL rates, decimal precisions and values are random), so that the
// typed statements of gen_types.go know what they can read. It is drawn
// from its own random stream: t1–t3 and the statements over them stay
// what they were.
const typedSeedStream = 0x7e4ed

// Classes of the typed columns and expressions, after gen.go's. The
// minimizer only puts an argument in place of a node of the same class,
// so each class is one SQL type as far as the engines' rules go.
const (
	TI8         Type = numTypes + iota // TINYINT
	TI16                               // SMALLINT
	TU8                                // UTINYINT
	TU16                               // USMALLINT
	TU32                               // UINTEGER
	TU64                               // UBIGINT
	THuge                              // HUGEINT (expressions only)
	TF32                               // FLOAT
	TTime                              // TIME
	TBlob                              // BLOB
	TUUID                              // UUID
	TTSms                              // TIMESTAMP_MS
	TTSns                              // TIMESTAMP_NS
	TInterval                          // INTERVAL
	TIntList                           // INTEGER[]
	TStrList                           // VARCHAR[]
	TStruct                            // STRUCT(a INTEGER, b VARCHAR)
	TMap                               // MAP(VARCHAR, INTEGER)
	TStructList                        // STRUCT(a INTEGER, b VARCHAR)[]
	numAllTypes
)

var typedNames = [...]string{"tinyint", "smallint", "utinyint", "usmallint", "uinteger", "ubigint", "hugeint", "float",
	"time", "blob", "uuid", "timestamp_ms", "timestamp_ns", "interval", "int list", "varchar list", "struct", "map", "struct list"}

// typedSQL is the SQL name of a typed class.
var typedSQL = [...]string{"TINYINT", "SMALLINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "HUGEINT", "FLOAT",
	"TIME", "BLOB", "UUID", "TIMESTAMP_MS", "TIMESTAMP_NS", "INTERVAL", "INTEGER[]", "VARCHAR[]",
	"STRUCT(a INTEGER, b VARCHAR)", "MAP(VARCHAR, INTEGER)", "STRUCT(a INTEGER, b VARCHAR)[]"}

// integral reports the integer classes of every width.
func (t Type) integral() bool { return t == TInt || t >= TI8 && t <= THuge }

// typedColumn is one column of t4 and the class it has.
type typedColumn struct {
	name string
	typ  Type
}

// typedColumns are t4's columns after id and k; the decimals da and db
// get their precision per seed, n32 is an INTEGER, s a VARCHAR with
// non-ASCII text, dt, ts and tz the classes of gen.go.
var typedColumns = []typedColumn{
	{"i8", TI8}, {"i16", TI16}, {"u8", TU8}, {"u16", TU16}, {"u32", TU32}, {"u64", TU64},
	{"n32", TInt}, {"f4", TF32}, {"da", TDec}, {"db", TDec}, {"s", TStr}, {"dt", TDate}, {"ts", TTS}, {"tz", TTS},
	{"tms", TTSms}, {"tns", TTSns}, {"tm", TTime}, {"bl", TBlob}, {"uu", TUUID}, {"iv", TInterval},
	{"li", TIntList}, {"ls", TStrList}, {"st", TStruct}, {"mp", TMap}, {"lst", TStructList},
}

// typedDecimals are the precisions and scales da and db draw from. None
// has p + s > 38: DuckDB caps the common type of two decimals (in
// COALESCE, CASE, UNION) at 38 digits by dropping fractional digits
// (DECIMAL(38,10) with round's DECIMAL(38,0) is DECIMAL(38,0), and
// -0.00000001 becomes 0), where carquet keeps the digits (doc.go).
var typedDecimals = [][2]int{{4, 1}, {7, 3}, {9, 2}, {12, 5}, {15, 0}, {18, 6}, {20, 4}, {28, 10}}

// GenerateTypedTable builds t4 of seed in dir.
func GenerateTypedTable(seed int64, dir string) (*Table, error) {
	r := rand.New(rand.NewPCG(uint64(seed), typedSeedStream))
	t := &Table{Name: "t4"}
	t.Cols = append(t.Cols, Column{Name: "id", Type: TInt, Bits: 64},
		Column{Name: keyInt, Type: TInt, Bits: 64, Nullable: true, NullRate: pick(r, []float64{0, 0.1})})
	for _, tc := range typedColumns {
		c := Column{Name: tc.name, Type: tc.typ, Nullable: r.IntN(6) > 0, Edgy: r.IntN(3) == 0}
		if c.Nullable {
			c.NullRate = pick(r, []float64{0, 0.1, 0.3, 0.9})
		}
		switch tc.name {
		case "n32":
			c.Bits = 32
		case "da", "db":
			ps := pick(r, typedDecimals)
			c.Prec, c.Scale = ps[0], ps[1]
		case "tz":
			c.TZ = true
		}
		t.Cols = append(t.Cols, c)
	}
	n := 40 + r.IntN(260)
	for i := range n {
		row := make([]any, len(t.Cols))
		row[0] = int64(i)
		if r.Float64() >= t.Cols[1].NullRate {
			row[1] = int64(r.IntN(12))
		}
		for ci := 2; ci < len(t.Cols); ci++ {
			row[ci] = randomTypedValue(r, t.Cols[ci])
		}
		t.Rows = append(t.Rows, row)
	}
	sortBy := -1
	if r.IntN(2) == 0 {
		// Sort by a column the writer's statistics order plainly.
		sortBy = pick(r, []int{0, 1, 2, 3, 9, 12})
	}
	opts := sortAndPlace(r, t, n, sortBy, compareTyped, dir)
	fields := make([]writer.Field, len(t.Cols))
	for i, c := range t.Cols {
		fields[i] = typedField(c)
	}
	if err := writeFields(t, fields, opts); err != nil {
		return nil, err
	}
	return t, nil
}

func typedField(c Column) writer.Field {
	var f writer.Field
	switch c.Type {
	case TI8:
		f = writer.Integer(c.Name, 8, true)
	case TI16:
		f = writer.Integer(c.Name, 16, true)
	case TU8:
		f = writer.Integer(c.Name, 8, false)
	case TU16:
		f = writer.Integer(c.Name, 16, false)
	case TU32:
		f = writer.Integer(c.Name, 32, false)
	case TU64:
		f = writer.Integer(c.Name, 64, false)
	case TF32:
		f = writer.Float(c.Name)
	case TTime:
		f = writer.Time(c.Name, writer.Micros, false)
	case TBlob:
		f = writer.Binary(c.Name)
	case TUUID:
		f = writer.UUID(c.Name)
	case TTSms:
		f = writer.Timestamp(c.Name, writer.Millis, false)
	case TTSns:
		f = writer.Timestamp(c.Name, writer.Nanos, false)
	case TInterval:
		f = writer.Interval(c.Name)
	case TIntList:
		f = writer.List(c.Name, writer.Int32("element"))
	case TStrList:
		f = writer.List(c.Name, writer.String("element"))
	case TStruct:
		f = writer.Group(c.Name, writer.Int32("a"), writer.String("b"))
	case TMap:
		f = writer.Map(c.Name, writer.String("key"), writer.Int32("value"))
	case TStructList:
		f = writer.List(c.Name, writer.Group("element", writer.Int32("a"), writer.String("b")))
	default:
		return baseField(c)
	}
	if c.Nullable {
		return f.Optional()
	}
	return f.Required()
}

// nonASCII are strings whose case mapping, length in characters and
// bytes, and LIKE matching differ from plain ASCII's.
var nonASCII = []string{"é", "É", "ça", "straße", "ÅB", "Σσ", "naïve", "日本", "ñÑ", "a€b", "Ωmega", "é_", "ǅ"}

// randomTypedValue draws a value of a typed column; INTEGER, VARCHAR,
// DECIMAL and the temporal classes of gen.go come from randomValue, with
// non-ASCII strings added.
func randomTypedValue(r *rand.Rand, c Column) any {
	if c.Nullable && r.Float64() < c.NullRate {
		return nil
	}
	edge := c.Edgy && r.IntN(8) == 0
	small := int64(r.IntN(41) - 20)
	switch c.Type {
	case TI8:
		if edge {
			return pick(r, []int8{math.MaxInt8, math.MinInt8, math.MaxInt8 - 1, 100})
		}
		return int8(small)
	case TI16:
		if edge {
			return pick(r, []int16{math.MaxInt16, math.MinInt16, 1000, -1000})
		}
		return int16(small * 3)
	case TU8:
		if edge {
			return pick(r, []uint8{math.MaxUint8, 200, 0})
		}
		return uint8(r.IntN(30))
	case TU16:
		if edge {
			return pick(r, []uint16{math.MaxUint16, 40000, 0})
		}
		return uint16(r.IntN(300))
	case TU32:
		if edge {
			return pick(r, []uint32{math.MaxUint32, 1 << 31, 3_000_000_000})
		}
		return uint32(r.IntN(1000))
	case TU64:
		if edge {
			return pick(r, []uint64{math.MaxUint64, 1 << 63, math.MaxInt64, 10_000_000_000_000_000_000})
		}
		return uint64(r.IntN(50))
	case TF32:
		if edge {
			return pick(r, []float32{0, 1e6, -1e6, 0.125, float32(math.Inf(1)), float32(math.Inf(-1))})
		}
		// Multiples of 1/8: exact in float32 and their sums exact in
		// float64.
		return float32(r.IntN(401)-200) / 8
	case TStr:
		if r.IntN(3) == 0 {
			return pick(r, nonASCII)
		}
		return randomValue(r, Column{Type: TStr})
	case TDec:
		if edge {
			return value.Decimal{Unscaled: maxUnscaled(c.Prec, r.IntN(2) == 0), Scale: int32(c.Scale)}
		}
		u := big.NewInt(int64(r.IntN(4001) - 2000))
		u.Rem(u, maxUnscaled(c.Prec, false))
		return value.Decimal{Unscaled: u, Scale: int32(c.Scale)}
	case TInt, TBool, TDate, TTS:
		return randomValue(r, Column{Type: c.Type, Bits: c.Bits, TZ: c.TZ, Edgy: c.Edgy})
	case TTime:
		if edge {
			return pick(r, []time.Duration{0, 24*time.Hour - time.Microsecond, 12 * time.Hour})
		}
		return time.Duration(r.IntN(24*60))*time.Minute + time.Duration(r.IntN(4))*15*time.Second
	case TBlob:
		if r.IntN(4) == 0 {
			return []byte{}
		}
		b := make([]byte, 1+r.IntN(3))
		for i := range b {
			b[i] = pick(r, []byte{'a', 'b', 0, 0xff, 0x80, '\\'})
		}
		return b
	case TUUID:
		return pick(r, uuids)
	case TTSms:
		return baseDay.AddDate(0, 0, r.IntN(60)).Add(time.Duration(r.IntN(86_400_000)) * time.Millisecond)
	case TTSns:
		if edge {
			return pick(r, edgeTimes)
		}
		return baseDay.AddDate(0, 0, r.IntN(60)).Add(time.Duration(r.IntN(86_400)) * time.Second).Add(time.Duration(r.IntN(1000)) * pick(r, []time.Duration{1, 1000}))
	case TInterval:
		return value.Interval{Months: uint32(r.IntN(3) * r.IntN(14)), Days: uint32(r.IntN(3) * r.IntN(40)), Millis: uint32(r.IntN(3) * r.IntN(90_000_000))}
	case TIntList:
		return randomList(r, func() any { return int32(r.IntN(11) - 3) })
	case TStrList:
		return randomList(r, func() any { return pick(r, []string{"a", "b", "ab", "", "é", "c"}) })
	case TStruct:
		if st := randomStruct(r); st != nil || c.Nullable {
			return st
		}
		return map[string]any{}
	case TMap:
		m := map[string]any{}
		for range r.IntN(4) {
			var v any
			if r.IntN(5) > 0 {
				v = int32(r.IntN(10))
			}
			m[pick(r, []string{"a", "b", "c", "é"})] = v
		}
		return m
	case TStructList:
		return randomList(r, func() any { return randomStruct(r) })
	}
	return nil
}

var uuids = []string{
	"00000000-0000-0000-0000-000000000000", "123e4567-e89b-12d3-a456-426614174000",
	"ffffffff-ffff-ffff-ffff-ffffffffffff", "7fffffff-ffff-ffff-ffff-ffffffffffff",
	"80000000-0000-0000-0000-000000000000", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
}

// maxUnscaled is the largest unscaled value of a precision, negated when
// neg.
func maxUnscaled(prec int, neg bool) *big.Int {
	u := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil), big.NewInt(1))
	if neg {
		u.Neg(u)
	}
	return u
}

// randomList is a list of 0–4 elements, some of them NULL.
func randomList(r *rand.Rand, elem func() any) []any {
	l := make([]any, r.IntN(5))
	for i := range l {
		if r.IntN(6) > 0 {
			l[i] = elem()
		}
	}
	return l
}

func randomStruct(r *rand.Rand) any {
	if r.IntN(8) == 0 {
		return nil
	}
	s := map[string]any{}
	if r.IntN(6) > 0 {
		s["a"] = int32(r.IntN(7) - 2)
	}
	if r.IntN(6) > 0 {
		s["b"] = pick(r, []string{"x", "y", "", "é"})
	}
	return s
}

// compareTyped orders the values of the columns t4 may be sorted by.
func compareTyped(a, b any) int {
	switch x := a.(type) {
	case int8:
		if y, ok := b.(int8); ok {
			return cmpOrd(int64(x), int64(y))
		}
	case int16:
		if y, ok := b.(int16); ok {
			return cmpOrd(int64(x), int64(y))
		}
	case float32:
		if y, ok := b.(float32); ok {
			return cmpOrd(float64(x), float64(y))
		}
	}
	if a == nil || b == nil {
		return compareGo(a, b)
	}
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return 0
	}
	return compareGo(a, b)
}
