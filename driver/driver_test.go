package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan"
	"github.com/carquet-go/carquet/writer"
)

func openTest(t testing.TB, dsnOpts string) (*sql.DB, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("carquet", dir+dsnOpts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dir
}

func mustExec(t testing.TB, db *sql.DB, q string, args ...any) sql.Result {
	t.Helper()
	r, err := db.Exec(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

func TestDSN(t *testing.T) {
	cfg, err := ParseDSN("/data?threads=4&mode=ro&compression=zstd&row_group_rows=1000000&verify_checksums=true&mmap=true")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Path: "/data", Threads: 4, ReadOnly: true, Compression: "zstd", RowGroupRows: 1000000, Mmap: true}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("got %+v", cfg)
	}
	// Verification is the default; verify_checksums=false skips it.
	if cfg, err := ParseDSN("/data"); err != nil || cfg.SkipChecksums {
		t.Fatalf("default: %+v, %v", cfg, err)
	}
	if cfg, err := ParseDSN("/data?verify_checksums=false"); err != nil || !cfg.SkipChecksums {
		t.Fatalf("verify_checksums=false: %+v, %v", cfg, err)
	}
	for _, bad := range []string{"", "/x?nope=1", "/x?threads=a", "/x?mode=rx", "/x?compression=lzo", "/x?row_group_rows=0", "/x?mmap=maybe"} {
		if _, err := ParseDSN(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := sql.Open("carquet", "/no/such/folder"); err == nil {
		// sql.Open defers to OpenConnector, which checks the path.
		t.Error("opening a missing path succeeded")
	}
	if _, err := sql.Open("carquet", t.TempDir()+"?unknown=1"); err == nil || !strings.Contains(err.Error(), "unknown DSN option") {
		t.Errorf("an unknown option: %v", err)
	}
}

func TestColumnTypes(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE ct (id BIGINT NOT NULL, i INTEGER, s SMALLINT, ub UBIGINT, f FLOAT, d DOUBLE, dec DECIMAL(12,3), v VARCHAR, b BLOB, dt DATE, tm TIME, ts TIMESTAMP, tz TIMESTAMPTZ, u UUID, j JSON, bo BOOLEAN, l INTEGER[], st STRUCT(a INTEGER, b VARCHAR))")
	rows, err := db.Query("SELECT * FROM ct")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		name, db string
		scan     reflect.Type
		nullable bool
	}
	wants := []want{
		{"id", "BIGINT", reflect.TypeOf(int64(0)), false},
		{"i", "INTEGER", reflect.TypeOf(int64(0)), true},
		{"s", "SMALLINT", reflect.TypeOf(int64(0)), true},
		{"ub", "UBIGINT", reflect.TypeOf(uint64(0)), true},
		{"f", "FLOAT", reflect.TypeOf(float64(0)), true},
		{"d", "DOUBLE", reflect.TypeOf(float64(0)), true},
		{"dec", "DECIMAL(12,3)", reflect.TypeOf(""), true},
		{"v", "VARCHAR", reflect.TypeOf(""), true},
		{"b", "BLOB", reflect.TypeOf([]byte(nil)), true},
		{"dt", "DATE", reflect.TypeOf(time.Time{}), true},
		{"tm", "TIME", reflect.TypeOf(time.Time{}), true},
		{"ts", "TIMESTAMP", reflect.TypeOf(time.Time{}), true},
		{"tz", "TIMESTAMPTZ", reflect.TypeOf(time.Time{}), true},
		{"u", "UUID", reflect.TypeOf(""), true},
		{"j", "JSON", reflect.TypeOf(""), true},
		{"bo", "BOOLEAN", reflect.TypeOf(false), true},
		{"l", "INTEGER[]", reflect.TypeOf([]any(nil)), true},
		{"st", "STRUCT(a INTEGER, b VARCHAR)", reflect.TypeOf(map[string]any(nil)), true},
	}
	if len(cts) != len(wants) {
		t.Fatalf("%d columns", len(cts))
	}
	for i, w := range wants {
		c := cts[i]
		nullable, ok := c.Nullable()
		if c.Name() != w.name || c.DatabaseTypeName() != w.db || c.ScanType() != w.scan || !ok || nullable != w.nullable {
			t.Errorf("column %d: %s %s %v %v, want %+v", i, c.Name(), c.DatabaseTypeName(), c.ScanType(), nullable, w)
		}
		p, s, ok := c.DecimalSize()
		if (w.name == "dec") != ok || ok && (p != 12 || s != 3) {
			t.Errorf("%s: DecimalSize %d %d %v", w.name, p, s, ok)
		}
	}
}

func TestValuesAndScanning(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE v (i INTEGER, ub UBIGINT, dec DECIMAL(20,4), ts TIMESTAMP, dt DATE, tm TIME, l INTEGER[], st STRUCT(a INTEGER, b VARCHAR), m MAP(VARCHAR, INTEGER), u UUID, b BLOB)")
	mustExec(t, db, "INSERT INTO v (i, ub, dec, ts, dt, tm, u, b) VALUES (1, 18446744073709551615, 1234567890123456.7891, '2024-01-02 03:04:05.678901', '2024-01-02', '10:11:12', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', X'00ff')")
	var (
		i   int64
		ub  uint64
		dec Decimal
		ts  time.Time
		dt  time.Time
		tm  time.Time
		u   string
		b   []byte
	)
	err := db.QueryRow("SELECT i, ub, dec, ts, dt, tm, u, b FROM v").Scan(&i, &ub, &dec, &ts, &dt, &tm, &u, &b)
	if err != nil {
		t.Fatal(err)
	}
	if i != 1 || ub != 18446744073709551615 || dec.String() != "1234567890123456.7891" ||
		!ts.Equal(time.Date(2024, 1, 2, 3, 4, 5, 678901000, time.UTC)) || ts.Location() != time.UTC ||
		!dt.Equal(time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)) || tm.Hour() != 10 || tm.Second() != 12 ||
		u != "6ba7b810-9dad-11d1-80b4-00c04fd430c8" || string(b) != "\x00\xff" {
		t.Fatalf("got %v %v %v %v %v %v %v %x", i, ub, dec, ts, dt, tm, u, b)
	}
	var f float64
	if err := db.QueryRow("SELECT dec FROM v").Scan(&f); err != nil || f != 1234567890123456.7891 {
		t.Fatalf("decimal into float64: %v %v", f, err)
	}
	var nd NullDecimal
	if err := db.QueryRow("SELECT CAST(NULL AS DECIMAL(5,2))").Scan(&nd); err != nil || nd.Valid {
		t.Fatalf("NullDecimal: %+v %v", nd, err)
	}
	// Nested values: Go values into any, JSON text into JSON.
	mustExec(t, db, "CREATE TABLE n AS SELECT 1 AS id")
	mustExec(t, db, "CREATE TABLE nest (id INTEGER, l INTEGER[], st STRUCT(a INTEGER, b VARCHAR))")
	if _, err := db.Exec("INSERT INTO nest SELECT id, NULL, NULL FROM n"); err != nil {
		t.Fatal(err)
	}
	var l, st any
	if err := db.QueryRow("SELECT l, st FROM nest").Scan(&l, &st); err != nil || l != nil || st != nil {
		t.Fatalf("NULL nested: %v %v %v", l, st, err)
	}
	var j JSON
	if err := j.Scan([]any{int32(1), nil, "x"}); err != nil || j.String() != `[1,null,"x"]` {
		t.Fatalf("JSON: %s %v", j, err)
	}
	if err := j.Scan(map[string]any{"a": int32(1)}); err != nil || j.String() != `{"a":1}` {
		t.Fatalf("JSON: %s %v", j, err)
	}
}

func TestNestedRoundTrip(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE src (id INTEGER, l INTEGER[], st STRUCT(a INTEGER, b VARCHAR), m MAP(VARCHAR, INTEGER))")
	// Build nested values through the engine: a writer-made file.
	e, err := sqlplan.Open(dir, sqlplan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := writeNested(dir); err != nil {
		t.Fatal(err)
	}
	var l, st, m any
	if err := db.QueryRow("SELECT l, st, m FROM nested_file WHERE id = 1").Scan(&l, &st, &m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l, []any{int32(1), int32(2), nil}) {
		t.Errorf("list: %#v", l)
	}
	if !reflect.DeepEqual(st, map[string]any{"a": int32(7), "b": "x"}) {
		t.Errorf("struct: %#v", st)
	}
	if !reflect.DeepEqual(m, map[string]any{"k": int32(3)}) {
		t.Errorf("map: %#v", m)
	}
	var js JSON
	if err := db.QueryRow("SELECT st FROM nested_file WHERE id = 1").Scan(&js); err != nil || js.String() != `{"a":7,"b":"x"}` {
		t.Errorf("struct as JSON: %s %v", js, err)
	}
	var a int64
	var bs string
	if err := db.QueryRow("SELECT st.a, st.b FROM nested_file WHERE st.a = 7").Scan(&a, &bs); err != nil || a != 7 || bs != "x" {
		t.Errorf("struct fields: %v %v %v", a, bs, err)
	}
	// CREATE TABLE AS and INSERT ... SELECT copy nested values.
	mustExec(t, db, "CREATE TABLE copy AS SELECT * FROM nested_file")
	mustExec(t, db, "INSERT INTO copy SELECT * FROM nested_file")
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM copy WHERE st IS NOT NULL").Scan(&n); err != nil || n != 4 {
		t.Errorf("copied: %d %v", n, err)
	}
	if err := db.QueryRow("SELECT l FROM copy LIMIT 1").Scan(&l); err != nil || !reflect.DeepEqual(l, []any{int32(1), int32(2), nil}) {
		t.Errorf("copied list: %#v %v", l, err)
	}
}

func TestArguments(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE a (i BIGINT, f DOUBLE, s VARCHAR, b BOOLEAN, ts TIMESTAMP, bl BLOB, ub UBIGINT, d DECIMAL(10,2))")
	ts := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	mustExec(t, db, "INSERT INTO a VALUES (?, ?, ?, ?, ?, ?, ?, ?)", int8(3), float32(1.5), "x", true, ts, []byte{1, 2}, uint64(1<<63+5), Decimal{Unscaled: big.NewInt(12345), Scale: 2})
	mustExec(t, db, "INSERT INTO a VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", int64(4), 2.5, sql.NullString{String: "y", Valid: true}, sql.NullBool{}, sql.NullTime{}, nil, uint(7), "1.5")
	mustExec(t, db, "INSERT INTO a (i, s) VALUES (:n, :s)", sql.Named("n", 5), sql.Named("s", "z"))
	mustExec(t, db, "INSERT INTO a (i, s) VALUES (@n, $s)", sql.Named("n", uint16(6)), sql.Named("s", valuer{"v"}))
	var n int64
	checks := []struct {
		q    string
		args []any
		want int64
	}{
		{"SELECT count(*) FROM a WHERE i = ?", []any{3}, 1},
		{"SELECT count(*) FROM a WHERE i = $1 OR i = $1 + 1", []any{int32(3)}, 2},
		{"SELECT count(*) FROM a WHERE s = :s", []any{sql.Named("s", "z")}, 1},
		{"SELECT count(*) FROM a WHERE ts = ?", []any{ts}, 1},
		{"SELECT count(*) FROM a WHERE ts < ?", []any{"2025-01-01"}, 1},
		{"SELECT count(*) FROM a WHERE ub > ?", []any{uint64(1 << 63)}, 1},
		{"SELECT count(*) FROM a WHERE d = ?", []any{Decimal{Unscaled: big.NewInt(12345), Scale: 2}}, 1},
		{"SELECT count(*) FROM a WHERE d = ?", []any{big.NewInt(123)}, 0},
		{"SELECT count(*) FROM a WHERE f > ?", []any{1.0}, 2},
		{"SELECT count(*) FROM a WHERE bl = ?", []any{[]byte{1, 2}}, 1},
		{"SELECT count(*) FROM a WHERE b IS NULL AND i > ?", []any{sql.NullInt64{Int64: 3, Valid: true}}, 3},
		{"SELECT count(*) FROM a WHERE s = ?", []any{nil}, 0},
		{"SELECT count(*) FROM a WHERE s IN (?, ?)", []any{"x", "v"}, 2},
	}
	for _, c := range checks {
		if err := db.QueryRow(c.q, c.args...).Scan(&n); err != nil || n != c.want {
			t.Errorf("%s %v: %d, %v (want %d)", c.q, c.args, n, err, c.want)
		}
	}
	if err := db.QueryRow("SELECT count(*) FROM a WHERE i = ?").Scan(&n); err == nil || !strings.Contains(err.Error(), "no value for parameter") {
		t.Errorf("missing argument: %v", err)
	}
	if err := db.QueryRow("SELECT count(*) FROM a WHERE i = ?", struct{}{}).Scan(&n); err == nil {
		t.Error("unsupported argument type accepted")
	}
}

type valuer struct{ s string }

func (v valuer) Value() (driver.Value, error) { return v.s, nil }

func TestTransactions(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id INTEGER NOT NULL, s VARCHAR)")
	count := func() int64 {
		var n int64
		if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	r, err := tx.Exec("INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.RowsAffected(); n != 2 {
		t.Fatalf("RowsAffected %d", n)
	}
	if _, err := tx.Exec("INSERT INTO t VALUES (3, 'c')"); err != nil {
		t.Fatal(err)
	}
	if count() != 0 {
		t.Fatal("uncommitted rows visible")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if count() != 3 {
		t.Fatalf("after commit: %d", count())
	}
	tx, _ = db.Begin()
	tx.Exec("INSERT INTO t VALUES (4, 'd')")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if count() != 3 {
		t.Fatalf("after rollback: %d", count())
	}
	// A bad row fails its statement and writes nothing.
	if _, err := db.Exec("INSERT INTO t VALUES (5, 'e'), (NULL, 'f')"); err == nil {
		t.Fatal("NULL into NOT NULL accepted")
	}
	if count() != 3 {
		t.Fatalf("after a failed INSERT: %d", count())
	}
	r = mustExec(t, db, "INSERT INTO t SELECT id + 10, s FROM t")
	if n, _ := r.RowsAffected(); n != 3 {
		t.Fatalf("INSERT SELECT RowsAffected %d", n)
	}
	ro, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Exec("INSERT INTO t VALUES (9, 'z')"); err == nil {
		t.Error("INSERT in a read-only transaction")
	}
	ro.Rollback()
	if _, err := db.BeginTx(context.Background(), &sql.TxOptions{Isolation: sql.LevelReadUncommitted}); err == nil {
		t.Error("READ UNCOMMITTED accepted")
	}
}

// TestTransactionReadsOwnWrites: a transaction's queries see the rows it
// has inserted (through filters, aggregates and joins, after each new
// INSERT), others do not until Commit; Rollback drops them, and the
// temporary files that held them are gone either way.
func TestTransactionReadsOwnWrites(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id INTEGER NOT NULL, s VARCHAR)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(os.TempDir(), "carquet-tx-*.parquet"))
		return m
	}
	before := len(temps())
	query := func(q queryer, sqlText string) string {
		t.Helper()
		var s string
		if err := q.QueryRow(sqlText).Scan(&s); err != nil {
			t.Fatalf("%s: %v", sqlText, err)
		}
		return s
	}
	for _, commit := range []bool{false, true} {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		const q = "SELECT count(*) || ':' || coalesce(string_agg(s, ',' ORDER BY id), '') FROM t WHERE id > 1"
		if got := query(tx, q); got != "1:b" {
			t.Fatalf("before the INSERT: %s", got)
		}
		if _, err := tx.Exec("INSERT INTO t VALUES (3, 'c'), (0, 'z')"); err != nil {
			t.Fatal(err)
		}
		if got := query(tx, q); got != "2:b,c" {
			t.Fatalf("after one INSERT: %s", got)
		}
		if _, err := tx.Exec("INSERT INTO t SELECT id + 10, s FROM t WHERE id >= 2"); err != nil {
			t.Fatal(err)
		}
		if got := query(tx, q); got != "4:b,c,b,c" {
			t.Fatalf("after INSERT ... SELECT of its own rows: %s", got)
		}
		if got := query(tx, "SELECT count(*)::VARCHAR FROM t a JOIN t b ON a.id = b.id"); got != "6" {
			t.Fatalf("self-join: %s", got)
		}
		if got := query(db, "SELECT count(*)::VARCHAR FROM t"); got != "2" {
			t.Fatalf("outside the transaction: %s rows", got)
		}
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: "2", true: "6"}[commit]
		if got := query(db, "SELECT count(*)::VARCHAR FROM t"); got != want {
			t.Fatalf("after commit=%v: %s rows, want %s", commit, got, want)
		}
		if n := len(temps()); n != before {
			t.Fatalf("%d temporary files left", n-before)
		}
	}
}

type queryer interface {
	QueryRow(string, ...any) *sql.Row
}

// TestTransactionKeepsNulls: the rows of several INSERTs of one
// transaction are merged into one batch before they are written; NULLs of
// a later statement must stay NULL after rows without any (the merged
// validity once kept the set bits of the first batch's bitmap word).
func TestTransactionKeepsNulls(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (id INTEGER NOT NULL, s VARCHAR, x DOUBLE)")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		"INSERT INTO t VALUES (1, 'a', 1.5)",
		"INSERT INTO t VALUES (2, NULL, NULL), (3, 'c', NULL)",
		"INSERT INTO t VALUES (4, NULL, 4.5)",
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT id, s IS NULL, x IS NULL FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id int64
		var sNull, xNull bool
		if err := rows.Scan(&id, &sNull, &xNull); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d:%v:%v", id, sNull, xNull))
	}
	if want := "1:false:false 2:true:true 3:false:true 4:true:false"; strings.Join(got, " ") != want {
		t.Fatalf("NULL flags %v, want %s", got, want)
	}
}

func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	rw, _ := sql.Open("carquet", dir)
	defer rw.Close()
	mustExec(t, rw, "CREATE TABLE t (a INTEGER)")
	mustExec(t, rw, "INSERT INTO t VALUES (1)")
	db, err := sql.Open("carquet", dir+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"INSERT INTO t VALUES (2)", "CREATE TABLE u (a INTEGER)", "DROP TABLE t", "CREATE TABLE v AS SELECT 1 AS x"} {
		_, err := db.Exec(q)
		if err == nil || !errors.Is(err, sqlplan.ErrReadOnly) || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s: %v", q, err)
		}
	}
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != 1 {
		t.Errorf("read: %d %v", n, err)
	}
}

func TestSingleFileDSN(t *testing.T) {
	_, dir := openTest(t, "")
	rw, _ := sql.Open("carquet", dir)
	defer rw.Close()
	mustExec(t, rw, "CREATE TABLE events (a INTEGER, b VARCHAR)")
	mustExec(t, rw, "INSERT INTO events VALUES (1, 'x'), (2, 'y')")
	db, err := sql.Open("carquet", dir+"/events.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT sum(a) FROM events").Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d %v", n, err)
	}
	mustExec(t, db, "INSERT INTO events VALUES (3, 'z')")
	if err := db.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil || n != 3 {
		t.Fatalf("after append: %d %v", n, err)
	}
}

func TestErrorsAtQueryTime(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (a INTEGER, s VARCHAR)")
	mustExec(t, db, "INSERT INTO t VALUES (1, 'x'), (2, 'abc')")
	// A cast failing on the data shows at Query, not at rows.Next.
	_, err := db.Query("SELECT CAST(s AS INTEGER) FROM t")
	if err == nil || !strings.Contains(err.Error(), "cannot cast") {
		t.Fatalf("Query: %v", err)
	}
	var e *sqlplan.Error
	_, err = db.Query("SELECT\n  b FROM t")
	if !errors.As(err, &e) || e.Line != 2 || e.Column != 3 || !errors.Is(err, sqlplan.ErrNoColumn) {
		t.Fatalf("position: %v (%+v)", err, e)
	}
	// Query of an INSERT runs it, as duckdb-go does (status_test.go).
	rows, err := db.Query("INSERT INTO t VALUES (3, 'q')")
	if err != nil {
		t.Fatalf("Query of an INSERT: %v", err)
	}
	rows.Close()
	if _, err := db.Exec("ATTACH 'other.duckdb'"); !errors.Is(err, sqlplan.ErrUnsupported) {
		t.Errorf("ATTACH of a DuckDB file: %v", err)
	}
	r, err := db.Exec("SELECT * FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.RowsAffected(); n != 3 {
		t.Errorf("Exec of a SELECT: %d rows, want 3", n)
	}
	if _, err := db.Exec("CREATE TABLE m1 (a INTEGER); CREATE TABLE m2 (a INTEGER); INSERT INTO m1 VALUES (1)"); err != nil {
		t.Errorf("several statements: %v", err)
	}
}

func TestCancel(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE big AS SELECT 1 AS a")
	for i := 0; i < 12; i++ {
		mustExec(t, db, "INSERT INTO big SELECT a + 1 FROM big")
	}
	// A cross join large enough to take a while; cancel it.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	rows, err := db.QueryContext(ctx, "SELECT count(*) FROM big x, big y WHERE x.a + y.a > 0")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(err.Error(), "context") {
		t.Fatalf("cancelled query: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancellation took %v", d)
	}
}

func TestConcurrent(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE c (id INTEGER, g VARCHAR)")
	mustExec(t, db, "INSERT INTO c VALUES (1, 'a'), (2, 'b'), (3, 'a')")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if w%4 == 0 {
					if _, err := db.Exec("INSERT INTO c VALUES (?, 'w')", 100+w*10+i); err != nil {
						errs <- err
						return
					}
					continue
				}
				var n int64
				if err := db.QueryRow("SELECT count(*) FROM c WHERE g = 'a'").Scan(&n); err != nil || n != 2 {
					errs <- errors.Join(err, errors.New("wrong count"))
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM c").Scan(&n); err != nil || n != 23 {
		t.Errorf("rows after concurrent inserts: %d %v", n, err)
	}
}

// writeNested writes nested_file.parquet: (id, l INTEGER[], st STRUCT(a, b), m MAP(VARCHAR, INTEGER)).
func writeNested(dir string) error {
	sch, err := writer.NewSchema(
		writer.Int32("id"),
		writer.List("l", writer.Int32("element")),
		writer.Group("st", writer.Int32("a"), writer.String("b")),
		writer.Map("m", writer.String("key").Required(), writer.Int32("value")),
	)
	if err != nil {
		return err
	}
	w, err := writer.Create(filepath.Join(dir, "nested_file.parquet"), sch)
	if err != nil {
		return err
	}
	id := &vector.Vector{Kind: vector.Int32, Len: 2, Int32s: []int32{1, 2}}
	elem := &vector.Vector{Kind: vector.Int32, Len: 3, Int32s: []int32{1, 2, 0}, Valid: vector.Bitmap{0b011}}
	l := &vector.Vector{Kind: vector.List, Len: 2, Offsets: []int32{0, 3, 3}, Children: []*vector.Vector{elem}}
	a := &vector.Vector{Kind: vector.Int32, Len: 2, Int32s: []int32{7, 8}}
	b := &vector.Vector{Kind: vector.ByteArray, Len: 2, Data: []byte("xy"), Offsets: []int32{0, 1, 2}}
	st := &vector.Vector{Kind: vector.Struct, Len: 2, Children: []*vector.Vector{a, b}}
	k := &vector.Vector{Kind: vector.ByteArray, Len: 1, Data: []byte("k"), Offsets: []int32{0, 1}}
	v := &vector.Vector{Kind: vector.Int32, Len: 1, Int32s: []int32{3}}
	m := &vector.Vector{Kind: vector.Map, Len: 2, Offsets: []int32{0, 1, 1}, Children: []*vector.Vector{k, v}}
	if err := w.WriteBatch([]*vector.Vector{id, l, st, m}); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}
