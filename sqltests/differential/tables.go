package differential

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// TablesVersion names the table generator. A regression case records the
// seed of its tables; the seed only reproduces them while the generator
// is unchanged, so any change to the generation below must bump this and
// re-record the cases of testdata/regressions.txt.
const TablesVersion = 1

// Type is the class of a column or expression as the query generator sees
// it. Integer widths, decimal precisions and timestamp time zones are
// details of a Column; expressions only need the class.
type Type int

const (
	TInt Type = iota
	TFloat
	TDec
	TStr
	TBool
	TDate
	TTS
	numTypes
)

func (t Type) String() string {
	if t >= numTypes {
		return typedNames[t-numTypes]
	}
	return [...]string{"int", "float", "decimal", "varchar", "bool", "date", "timestamp"}[t]
}

// numeric reports whether values of t take part in arithmetic.
func (t Type) numeric() bool { return t == TInt || t == TFloat || t == TDec }

// temporal reports whether t is a date or a timestamp.
func (t Type) temporal() bool { return t == TDate || t == TTS }

// Column is one column of a generated table.
type Column struct {
	Name     string
	Type     Type
	Bits     int // 32 or 64 for TInt
	Prec     int // TDec
	Scale    int // TDec
	TZ       bool
	Nullable bool
	// NullRate is the fraction of NULLs written.
	NullRate float64
	// Edgy columns also hold the extreme values of their type.
	Edgy bool
}

// SQLType is the column's type in DuckDB's words.
func (c Column) SQLType() string {
	if c.Type >= numTypes {
		return typedSQL[c.Type-numTypes]
	}
	switch c.Type {
	case TInt:
		if c.Bits == 32 {
			return "INTEGER"
		}
		return "BIGINT"
	case TFloat:
		return "DOUBLE"
	case TDec:
		return fmt.Sprintf("DECIMAL(%d,%d)", c.Prec, c.Scale)
	case TStr:
		return "VARCHAR"
	case TBool:
		return "BOOLEAN"
	case TDate:
		return "DATE"
	case TTS:
		if c.TZ {
			return "TIMESTAMPTZ"
		}
		return "TIMESTAMP"
	}
	return "?"
}

// Table is a generated table: its schema, its rows and how it was written.
type Table struct {
	Name    string
	Cols    []Column
	Rows    [][]any
	Options string // the writer options, for the report
	Path    string
}

// Col returns the column called name, or nil.
func (t *Table) Col(name string) *Column {
	for i := range t.Cols {
		if t.Cols[i].Name == name {
			return &t.Cols[i]
		}
	}
	return nil
}

// Describe is a one-line summary of the table for failure reports.
func (t *Table) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d rows; %s):", t.Name, len(t.Rows), t.Options)
	for _, c := range t.Cols {
		fmt.Fprintf(&b, " %s %s", c.Name, c.SQLType())
		if !c.Nullable {
			b.WriteString(" NOT NULL")
		} else if c.NullRate > 0 {
			fmt.Fprintf(&b, " nulls=%.2f", c.NullRate)
		}
		if c.Edgy {
			b.WriteString(" edgy")
		}
		b.WriteString(",")
	}
	return strings.TrimSuffix(b.String(), ",")
}

// The shared key columns: k (BIGINT, small domain) in every table and g
// (VARCHAR, small alphabet) in t1 and t2, so that joins on them match.
const (
	keyInt = "k"
	keyStr = "g"
)

// tableSeedStream separates the tables' random stream from the queries'.
const tableSeedStream = 0x7ab1e5

// GenerateTables builds the tables of seed in dir: t1 (the largest), t2
// and t3 (small), sharing the key columns. The same seed always gives
// the same files (for the same TablesVersion).
func GenerateTables(seed int64, dir string) ([]*Table, error) {
	r := rand.New(rand.NewPCG(uint64(seed), tableSeedStream))
	keyDomain := 10 + r.IntN(40)
	sizes := []int{300 + r.IntN(1200), 50 + r.IntN(250), 5 + r.IntN(60)}
	extra := []int{3 + r.IntN(5), 2 + r.IntN(4), 1 + r.IntN(3)}
	var tables []*Table
	for ti := range 3 {
		t := &Table{Name: fmt.Sprintf("t%d", ti+1)}
		t.Cols = append(t.Cols, Column{Name: "id", Type: TInt, Bits: 64})
		kc := Column{Name: keyInt, Type: TInt, Bits: 64, Nullable: true, NullRate: pick(r, []float64{0, 0.05, 0.2})}
		t.Cols = append(t.Cols, kc)
		if ti < 2 {
			t.Cols = append(t.Cols, Column{Name: keyStr, Type: TStr, Nullable: true, NullRate: pick(r, []float64{0, 0.1})})
		}
		counts := map[Type]int{}
		for range extra[ti] {
			c := randomColumn(r)
			counts[c.Type]++
			c.Name = fmt.Sprintf("%s%d", typePrefix[c.Type], counts[c.Type])
			t.Cols = append(t.Cols, c)
		}
		n := sizes[ti]
		for i := range n {
			row := make([]any, len(t.Cols))
			row[0] = int64(i)
			for ci := 1; ci < len(t.Cols); ci++ {
				c := t.Cols[ci]
				switch {
				case c.Name == keyInt:
					if r.Float64() < c.NullRate {
						continue
					}
					row[ci] = int64(r.IntN(keyDomain))
				case c.Name == keyStr:
					if r.Float64() < c.NullRate {
						continue
					}
					row[ci] = keyStrings[r.IntN(min(len(keyStrings), 2+keyDomain/4))]
				default:
					row[ci] = randomValue(r, c)
				}
			}
			t.Rows = append(t.Rows, row)
		}
		// Sorting by a column makes the statistics of row groups and pages
		// selective, which is what pruning needs.
		sortBy := -1
		if r.IntN(3) > 0 {
			sortBy = r.IntN(len(t.Cols))
		}
		opts := sortAndPlace(r, t, n, sortBy, compareGo, dir)
		if err := writeTable(t, opts); err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	return tables, nil
}

var typePrefix = [numTypes]string{TInt: "i", TFloat: "f", TDec: "m", TStr: "s", TBool: "b", TDate: "d", TTS: "ts"}

var keyStrings = []string{"a", "b", "ab", "ba", "c", "", "abc", "B", "a b", "bb", "ca", "cab"}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func randomColumn(r *rand.Rand) Column {
	c := Column{Type: Type(r.IntN(int(numTypes)))}
	switch c.Type {
	case TInt:
		c.Bits = pick(r, []int{32, 64})
	case TDec:
		ps := pick(r, [][2]int{{5, 2}, {10, 2}, {18, 4}, {30, 6}, {9, 0}})
		c.Prec, c.Scale = ps[0], ps[1]
	case TTS:
		c.TZ = r.IntN(2) == 0
	}
	c.Nullable = r.IntN(5) > 0
	if c.Nullable {
		c.NullRate = pick(r, []float64{0, 0.05, 0.2, 0.5, 0.9, 1})
	}
	c.Edgy = r.IntN(4) == 0
	return c
}

var (
	baseDay   = time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC)
	edgeDates = []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
	}
	edgeTimes = []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999000, time.UTC),
		time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 1, 0, 0, 0, 1000, time.UTC),
		time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	strPool = []string{"", "a", "b", "ab", "ba", "abc", "A", "Ab", " a", "a ", "é", "a_b", "a%", "bab", "cc"}
)

// randomValue draws a value of c: mostly from a small domain so that
// equality, GROUP BY and joins hit, sometimes an edge value.
func randomValue(r *rand.Rand, c Column) any {
	if c.Nullable && r.Float64() < c.NullRate {
		return nil
	}
	edge := r.IntN(10) == 0
	switch c.Type {
	case TInt:
		if c.Bits == 32 {
			if edge {
				// No INTEGER extremes: DuckDB computes INTEGER arithmetic
				// in 32 bits and fails on overflow where carquet widens
				// to BIGINT, so i+1 on MaxInt32 would only show that.
				return pick(r, []int32{0, -1, 1, 1000, -1000, 1 << 20, -(1 << 20)})
			}
			return int32(r.IntN(41) - 20)
		}
		if edge {
			e := []int64{0, -1, 1, 1e6, -1e6, 1e12, -1e12, 1 << 40}
			if c.Edgy {
				e = append(e, math.MaxInt64, math.MinInt64, math.MaxInt64-1)
			}
			return pick(r, e)
		}
		return int64(r.IntN(41) - 20)
	case TFloat:
		// Multiples of 1/8 well within 2^53: sums are exact in any order.
		if edge {
			e := []float64{0, 1.5, -2.25, 0.125, 1e10, -1e10, 1 << 30}
			if c.Edgy {
				// No huge finite values: 1e300 - 1e300 + x is x or 0
				// depending on the order of a sum (DuckDB sums with
				// compensation), which no tolerance absorbs. No NaN:
				// DuckDB's own answers disagree with each other on NaN
				// in Parquet files (see doc.go).
				e = append(e, 5e-324, math.Inf(1), math.Inf(-1))
			}
			return pick(r, e)
		}
		return float64(r.IntN(801)-400) / 8
	case TDec:
		maxU := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(c.Prec)), nil), big.NewInt(1))
		var u *big.Int
		switch {
		case edge && c.Edgy:
			u = pick(r, []*big.Int{maxU, new(big.Int).Neg(maxU), big.NewInt(0)})
		case edge:
			u = big.NewInt(pick(r, []int64{0, 1, -1, 99, -99}))
		default:
			u = big.NewInt(int64(r.IntN(4001) - 2000))
			u.Rem(u, maxU)
		}
		return value.Decimal{Unscaled: u, Scale: int32(c.Scale)}
	case TStr:
		if r.IntN(2) == 0 {
			return pick(r, strPool)
		}
		n := r.IntN(5)
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc"[r.IntN(3)]
		}
		return string(b)
	case TBool:
		return r.IntN(2) == 0
	case TDate:
		if edge {
			return pick(r, edgeDates)
		}
		return baseDay.AddDate(0, 0, r.IntN(120))
	case TTS:
		if edge {
			return pick(r, edgeTimes)
		}
		t := baseDay.AddDate(0, 0, r.IntN(120)).Add(time.Duration(r.IntN(24*4)) * 15 * time.Minute)
		if r.IntN(4) == 0 {
			t = t.Add(time.Duration(r.IntN(1e9)) * time.Microsecond)
		}
		return t
	}
	return nil
}

// compareGo orders generated values (nil first) for sorting a table.
func compareGo(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch x := a.(type) {
	case int64:
		return cmpOrd(x, b.(int64))
	case int32:
		return cmpOrd(x, b.(int32))
	case float64:
		return cmpOrd(x, b.(float64))
	case string:
		return strings.Compare(x, b.(string))
	case bool:
		return cmpOrd(boolInt(x), boolInt(b.(bool)))
	case time.Time:
		return x.Compare(b.(time.Time))
	case value.Decimal:
		return x.Unscaled.Cmp(b.(value.Decimal).Unscaled)
	}
	return 0
}

func cmpOrd[T int64 | int32 | float64 | int](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomOptions picks how a table is written: row groups and pages small
// enough that a few thousand rows make many of each, so that row-group
// statistics, the page index and bloom filters all get used.
// sortAndPlace sorts t's rows by column sortBy with cmp (not when it is
// -1), draws the writer's options for its n rows, describes both in
// t.Options and names its file in dir.
func sortAndPlace(r *rand.Rand, t *Table, n, sortBy int, cmp func(a, b any) int, dir string) []writer.Option {
	if sortBy >= 0 {
		slices.SortStableFunc(t.Rows, func(a, b []any) int { return cmp(a[sortBy], b[sortBy]) })
	}
	opts, desc := randomOptions(r, n)
	if sortBy >= 0 {
		desc = "sorted by " + t.Cols[sortBy].Name + ", " + desc
	}
	t.Options = desc
	t.Path = filepath.Join(dir, t.Name+".parquet")
	return opts
}

func randomOptions(r *rand.Rand, rows int) ([]writer.Option, string) {
	rg := pick(r, []int64{50, 128, 333, 1000, int64(rows) + 1})
	pageRows := pick(r, []int{7, 20, 64, 500})
	codec := pick(r, []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Zstd, format.Gzip, format.LZ4Raw})
	dict := r.IntN(2) == 0
	pageVersion := 1 + r.IntN(2)
	bloom := r.IntN(2) == 0
	pageIndex := r.IntN(5) > 0
	opts := []writer.Option{
		writer.WithRowGroupRows(rg),
		writer.WithPageRowLimit(pageRows),
		writer.WithCompression(codec),
		writer.WithDictionary(dict),
		writer.WithDataPageVersion(pageVersion),
		writer.WithPageIndex(pageIndex),
	}
	if bloom {
		opts = append(opts, writer.WithBloomFilter(64, 0.01))
	}
	desc := fmt.Sprintf("row groups of %d rows, pages of %d rows, %s, dictionary=%v, page v%d, page index=%v, bloom=%v",
		rg, pageRows, codec, dict, pageVersion, pageIndex, bloom)
	return opts, desc
}

func writeTable(t *Table, opts []writer.Option) error {
	fields := make([]writer.Field, len(t.Cols))
	for i, c := range t.Cols {
		fields[i] = baseField(c)
	}
	return writeFields(t, fields, opts)
}

// baseField is the writer's field of a column of gen.go's classes.
func baseField(c Column) writer.Field {
	var f writer.Field
	switch c.Type {
	case TInt:
		if c.Bits == 32 {
			f = writer.Int32(c.Name)
		} else {
			f = writer.Int64(c.Name)
		}
	case TFloat:
		f = writer.Double(c.Name)
	case TDec:
		f = writer.Decimal(c.Name, c.Prec, c.Scale)
	case TStr:
		f = writer.String(c.Name)
	case TBool:
		f = writer.Bool(c.Name)
	case TDate:
		f = writer.Date(c.Name)
	case TTS:
		f = writer.Timestamp(c.Name, writer.Micros, c.TZ)
	}
	if c.Nullable {
		return f.Optional()
	}
	return f.Required()
}

// writeFields writes the rows of t into t.Path with the schema of fields.
func writeFields(t *Table, fields []writer.Field, opts []writer.Option) error {
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	w, err := writer.Create(t.Path, sch, opts...)
	if err != nil {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	if err := w.WriteRows(t.Rows); err != nil {
		w.Abort()
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	return w.Close()
}
