package types

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	_ "github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// env is what every cell shares: one folder (carquet's database), one
// DuckDB in memory and one carquet connection over the folder.
type env struct {
	dir  string
	duck *sql.DB
	carq *sql.DB
}

// file is one written file of a case and the values it should hold.
type file struct {
	path string
	want *peers.Table
	// literals are the SQL text of each row of want, for messages.
	literals []string
}

// writer writes a case's values into a Parquet file. src is the values
// written: DuckDB's reading of its table, and a file DuckDB wrote from it
// that the arrow-go and COPY writers start from.
type writer struct {
	name string
	// skip says why the writer does not apply to a case ("" when it does).
	skip  func(c Case) string
	write func(t *testing.T, e *env, c Case, src *file) *file
}

// noFloat16 is the skip of the writers that cannot write a FLOAT16.
func noFloat16(c Case) string {
	if c.Float16 {
		return "only arrow-go writes FLOAT16"
	}
	return ""
}

var writers = []writer{
	{"duckdb", noFloat16, func(t *testing.T, e *env, c Case, src *file) *file {
		return duckdbCopy(t, e, c, src, "duckdb", "")
	}},
	{"duckdb_v2", noFloat16, func(t *testing.T, e *env, c Case, src *file) *file {
		return duckdbCopy(t, e, c, src, "duckdb_v2", ", PARQUET_VERSION V2")
	}},
	{"arrow", noArrow, func(t *testing.T, e *env, c Case, src *file) *file {
		return arrowWrite(t, e, c, src, "arrow", parquet.DataPageV1)
	}},
	{"arrow_v2", noArrow, func(t *testing.T, e *env, c Case, src *file) *file {
		return arrowWrite(t, e, c, src, "arrow_v2", parquet.DataPageV2)
	}},
	{"arrow_int96", func(c Case) string {
		if !strings.HasPrefix(c.Type, "TIMESTAMP") {
			return "arrow-go writes INT96 only for timestamps"
		}
		return ""
	}, func(t *testing.T, e *env, c Case, src *file) *file {
		f := arrowWrite(t, e, c, src, "arrow_int96", parquet.DataPageV1, pqarrow.WithDeprecatedInt96Timestamps(true))
		// INT96 holds nanoseconds, but its SQL type is TIMESTAMP: DuckDB
		// and carquet both read it in microseconds (truncated).
		f.want = &peers.Table{Columns: f.want.Columns, Types: f.want.Types, Rows: microRows(f.want.Rows)}
		return f
	}},
	{"carquet_insert", noFloat16, carquetInsert},
	{"carquet_copy", noFloat16, func(t *testing.T, e *env, c Case, src *file) *file {
		name := c.fileName() + "_carquet_copy.parquet"
		q := fmt.Sprintf("COPY (SELECT * FROM '%s') TO '%s' (FORMAT PARQUET)", filepath.Base(src.path), name)
		if _, err := e.carq.Exec(q); err != nil {
			t.Fatalf("carquet: %s: %v", q, err)
		}
		return &file{path: filepath.Join(e.dir, name), want: src.want, literals: src.literals}
	}},
}

func TestTypeMatrix(t *testing.T) {
	e := &env{dir: t.TempDir()}
	var err error
	if e.duck, err = peers.OpenDuckDB(1); err != nil {
		t.Fatal(err)
	}
	defer e.duck.Close()
	if _, err := e.duck.Exec("SET TimeZone='UTC'"); err != nil {
		t.Fatal(err)
	}
	if e.carq, err = sql.Open("carquet", e.dir); err != nil {
		t.Fatal(err)
	}
	defer e.carq.Close()
	t.Logf("DuckDB %s", peers.DuckDBVersion(e.duck))
	for _, c := range Cases {
		t.Run(c.Name, func(t *testing.T) {
			src := writeSource(t, e, c)
			for _, w := range writers {
				t.Run(w.name, func(t *testing.T) {
					if why := w.skip(c); why != "" {
						t.Skip(why)
					}
					check(t, e, w.write(t, e, c, src))
				})
			}
		})
	}
}

// writeSource makes the case's table in DuckDB's memory, one INSERT per
// value, and copies it to a file: the values written are DuckDB's reading
// of that table.
func writeSource(t *testing.T, e *env, c Case) *file {
	table := "w_" + c.fileName()
	if _, err := e.duck.Exec(fmt.Sprintf("CREATE OR REPLACE TABLE %s (v %s)", table, c.Type)); err != nil {
		t.Fatalf("DuckDB: %v", err)
	}
	for _, v := range c.Values {
		if _, err := e.duck.Exec(fmt.Sprintf("INSERT INTO %s VALUES (%s)", table, v)); err != nil {
			t.Fatalf("DuckDB inserts %s into %s: %v", v, c.Type, err)
		}
	}
	want, err := peers.ReadDuckDBFrom(e.duck, table, nil)
	if err != nil {
		t.Fatalf("DuckDB reads its table %s: %v", table, err)
	}
	return duckdbCopy(t, e, c, &file{want: want, literals: c.Values}, "source", "")
}

func duckdbCopy(t *testing.T, e *env, c Case, src *file, name, options string) *file {
	path := filepath.Join(e.dir, c.fileName()+"_"+name+".parquet")
	q := fmt.Sprintf("COPY w_%s TO '%s' (FORMAT parquet%s)", c.fileName(), path, options)
	if _, err := e.duck.Exec(q); err != nil {
		t.Fatalf("DuckDB: %s: %v", q, err)
	}
	return &file{path: path, want: src.want, literals: src.literals}
}

func noArrow(c Case) string { return c.NoArrow }

// arrowWrite reads DuckDB's file into an Arrow table with pqarrow and
// writes that table with pqarrow's defaults, the given data page version
// and Arrow writer options.
func arrowWrite(t *testing.T, e *env, c Case, src *file, name string, pv parquet.DataPageVersion, opts ...pqarrow.WriterOption) *file {
	tbl, err := peers.ReadArrowTable(src.path)
	if err != nil {
		t.Fatalf("arrow-go reads DuckDB's file: %v", err)
	}
	defer tbl.Release()
	if c.Float16 {
		half, err := toFloat16(tbl)
		if err != nil {
			t.Fatal(err)
		}
		defer half.Release()
		tbl = half
	}
	path := filepath.Join(e.dir, c.fileName()+"_"+name+".parquet")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// WriteTable closes out.
	err = pqarrow.WriteTable(tbl, out, 1<<20, parquet.NewWriterProperties(parquet.WithDataPageVersion(pv)), pqarrow.NewArrowWriterProperties(opts...))
	if err != nil {
		t.Fatalf("arrow-go writes %s: %v", tbl.Schema(), err)
	}
	return &file{path: path, want: src.want, literals: src.literals}
}

// toFloat16 returns a table of one float16 column holding the values of
// tbl's one float32 column.
func toFloat16(tbl arrow.Table) (arrow.Table, error) {
	if tbl.NumCols() != 1 || tbl.Column(0).DataType().ID() != arrow.FLOAT32 {
		return nil, fmt.Errorf("FLOAT16 case: the source is %s, not one float32 column", tbl.Schema())
	}
	b := array.NewFloat16Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, chunk := range tbl.Column(0).Data().Chunks() {
		f := chunk.(*array.Float32)
		for i := 0; i < f.Len(); i++ {
			if f.IsNull(i) {
				b.AppendNull()
				continue
			}
			h, err := halfBits(f.Value(i))
			if err != nil {
				return nil, err
			}
			b.Append(float16.FromBits(h))
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	field := arrow.Field{Name: tbl.Column(0).Name(), Type: arrow.FixedWidthTypes.Float16, Nullable: true}
	return array.NewTableFromSlice(arrow.NewSchema([]arrow.Field{field}, nil), [][]arrow.Array{{arr}}), nil
}

// carquetInsert makes the table with carquet (CREATE TABLE with DuckDB's
// type name) and inserts each value on its own, so that a value carquet
// refuses fails the cell and leaves the others to be checked.
func carquetInsert(t *testing.T, e *env, c Case, w *file) *file {
	name := c.fileName() + "_carquet_insert"
	if _, err := e.carq.Exec(fmt.Sprintf("CREATE TABLE %s (v %s)", name, c.Type)); err != nil {
		t.Fatalf("carquet: CREATE TABLE %s (v %s): %v", name, c.Type, err)
	}
	f := &file{path: filepath.Join(e.dir, name+".parquet"), want: &peers.Table{Columns: w.want.Columns, Types: w.want.Types}}
	for i, v := range c.Values {
		if _, err := e.carq.Exec(fmt.Sprintf("INSERT INTO %s VALUES (%s)", name, v)); err != nil {
			t.Errorf("carquet: INSERT %s into %s: %v", v, c.Type, err)
			continue
		}
		f.want.Rows = append(f.want.Rows, w.want.Rows[i])
		f.literals = append(f.literals, v)
	}
	return f
}

// check reads a file with carquet and DuckDB and runs the four checks:
// each reader against the values written, the two readers against each
// other, and the type names.
func check(t *testing.T, e *env, f *file) {
	duck, duckErr := peers.ReadDuckDBFile(e.duck, f.path, nil)
	carq, carqErr := peers.ReadCarquetSQL(e.carq, fmt.Sprintf("SELECT * FROM '%s'", filepath.Base(f.path)))
	t.Run("carquet", func(t *testing.T) {
		if carqErr != nil {
			t.Fatalf("carquet reads the file: %v", carqErr)
		}
		var also *peers.Table
		if duckErr == nil {
			also = duck
		}
		compare(t, f.literals, "written", f.want, "carquet", carq, also)
	})
	t.Run("duckdb", func(t *testing.T) {
		if duckErr != nil {
			t.Fatalf("DuckDB reads the file: %v", duckErr)
		}
		compare(t, f.literals, "written", f.want, "duckdb", duck, nil)
	})
	t.Run("agree", func(t *testing.T) {
		if carqErr != nil || duckErr != nil {
			t.Skip("a reader failed (reported by its cell)")
		}
		compare(t, f.literals, "duckdb", duck, "carquet", carq, nil)
	})
	t.Run("type", func(t *testing.T) {
		if carqErr != nil || duckErr != nil {
			t.Skip("a reader failed (reported by its cell)")
		}
		t.Logf("carquet %v, DuckDB %v", carq.Types, duck.Types)
		for i := range duck.Types {
			if i < len(carq.Types) && typeName(carq.Types[i]) != typeName(duck.Types[i]) {
				t.Errorf("column %s: carquet says %s, DuckDB says %s", duck.Columns[i], carq.Types[i], duck.Types[i])
			}
		}
	})
}

var quotedName = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)"`)

// typeName maps spellings of one type to one: DuckDB's synonyms, and
// struct field names quoted or not.
func typeName(s string) string {
	switch s {
	case "TIMESTAMP WITH TIME ZONE":
		return "TIMESTAMPTZ"
	}
	return quotedName.ReplaceAllString(s, "$1")
}

// compare reports every row where got differs from want, with the
// literal written and, when also is given, DuckDB's reading of the row.
func compare(t *testing.T, literals []string, wantName string, want *peers.Table, gotName string, got, also *peers.Table) {
	t.Helper()
	if len(want.Rows) != len(got.Rows) {
		t.Errorf("%s has %d rows, %s %d", wantName, len(want.Rows), gotName, len(got.Rows))
	}
	for r := range min(len(want.Rows), len(got.Rows)) {
		for c := range want.Rows[r] {
			if c >= len(got.Rows[r]) {
				t.Errorf("row %d: %s has %d columns", r, gotName, len(got.Rows[r]))
				break
			}
			w, g := want.Rows[r][c], got.Rows[r][c]
			if w == g {
				continue
			}
			msg := fmt.Sprintf("row %d", r)
			if r < len(literals) {
				msg += " " + literals[r]
			}
			msg += fmt.Sprintf(": %s %s, %s %s (%s)", wantName, w, gotName, g, got.Types[c])
			if also != nil && r < len(also.Rows) && c < len(also.Rows[r]) {
				msg += fmt.Sprintf(", duckdb %s", also.Rows[r][c])
			}
			t.Error(msg)
		}
	}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// halfBits returns the IEEE half-precision bits of f, which must be exact
// in half precision (float16.New flushes subnormals to zero).
func halfBits(f float32) (uint16, error) {
	sign := uint16(math.Float32bits(f)>>16) & 0x8000
	a := math.Abs(float64(f))
	switch {
	case math.IsNaN(a):
		return sign | 0x7e00, nil
	case math.IsInf(a, 0):
		return sign | 0x7c00, nil
	case a == 0:
		return sign, nil
	}
	_, exp := math.Frexp(a) // a = m × 2^exp, m in [0.5, 1)
	biased := exp + 14
	var bits float64
	if biased >= 1 {
		bits = float64(biased)*1024 + (a/math.Ldexp(1, exp-1)-1)*1024
	} else {
		bits = a / math.Ldexp(1, -24)
	}
	if bits != math.Trunc(bits) || bits >= 0x7c00 {
		return 0, fmt.Errorf("%v is not a half-precision value", f)
	}
	return sign | uint16(bits), nil
}

// microRows copies rendered rows with every time's nanosecond digits
// truncated to microseconds.
func microRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, v := range r {
			out[i][j] = subMicros.ReplaceAllString(v, "${1}000Z")
		}
	}
	return out
}

// subMicros matches the nanosecond digits of a rendered time.
var subMicros = regexp.MustCompile(`(\.\d{6})\d{3}Z`)
