package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	_ "github.com/carquet-go/carquet/driver"
)

// TestParallelPipelineMatchesSerial runs aggregations whose filters and
// arithmetic the engine evaluates on several goroutines (EXPLAIN shows
// PARALLEL) and checks every answer and the first error against the same
// query at one thread. Float sums may differ in their last bits: an
// order-free aggregate reads row groups in the order they are decoded.
func TestParallelPipelineMatchesSerial(t *testing.T) {
	dir := t.TempDir()
	par, err := sql.Open("carquet", dir+"?threads=4&row_group_rows=30000")
	if err != nil {
		t.Fatal(err)
	}
	defer par.Close()
	ser, err := sql.Open("carquet", dir+"?threads=1")
	if err != nil {
		t.Fatal(err)
	}
	defer ser.Close()
	if _, err := par.Exec(`CREATE TABLE t AS SELECT range AS i, CAST(range % 1000 AS DECIMAL(9,2)) / 7 AS price,
		CASE WHEN range % 11 = 0 THEN NULL ELSE range * 0.1 END AS f FROM range(200000)`); err != nil {
		t.Fatal(err)
	}
	queries := []string{
		"SELECT sum(i * 2.5), sum(CAST(i AS DOUBLE) / 3), count(*) FROM t WHERE i % 7 <> 0",
		"SELECT sum(f * 1.1), avg(f), min(f - 1), max(f + 1), count(f) FROM t",
		"SELECT sum(price * (1 - price / 100)), sum(price + 1), avg(price) FROM t WHERE price > 10",
		"SELECT i % 10 AS g, sum(f * 3), sum(price * 2), count(*) FROM t WHERE i > 1000 GROUP BY g ORDER BY g",
		"SELECT i % 3 = 0 AS g, sum(CAST(i AS DOUBLE) * 0.1) FROM t GROUP BY g ORDER BY g",
		"SELECT count(*) FROM t WHERE f * 2 > 100 AND price < 50",
		"SELECT sum(CAST(i AS INTEGER) * CASE WHEN i = 123456 THEN 100000 ELSE 1 END) FROM t WHERE i > 5",
	}
	for _, q := range queries {
		want, werr := queryAll(ser, q)
		got, gerr := queryAll(par, q)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s:\n one thread: %v\n four threads: %v", q, werr, gerr)
		}
		if !sameRows(got, want) {
			t.Errorf("%s:\n four threads %v\n one thread   %v", q, got, want)
		}
	}
	plan, err := queryAll(par, "EXPLAIN "+queries[0])
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprint(plan); !strings.Contains(s, "PARALLEL x4") {
		t.Errorf("the plan does not run in parallel:\n%s", s)
	}
}

// TestParallelPipelineStops closes and cancels queries whose pipeline is
// running: no hang, and the connection stays usable.
func TestParallelPipelineStops(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("carquet", dir+"?threads=4&row_group_rows=20000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t AS SELECT range AS i FROM range(300000)"); err != nil {
		t.Fatal(err)
	}
	q := "SELECT i % 1000 AS g, sum(i * 3) FROM t WHERE i % 2 = 0 GROUP BY g"
	for k := 0; k < 20; k++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(k)*200*time.Microsecond)
		rows, err := db.QueryContext(ctx, q)
		if err == nil {
			if rows.Next() && k%2 == 0 {
				rows.Close() // stop after one group
			}
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			t.Fatalf("run %d: %v", k, err)
		}
	}
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM (" + q + ")").Scan(&n); err != nil || n != 500 {
		t.Fatalf("after the stops: %d groups, %v", n, err)
	}
}

// queryAll returns every row of q as scanned values.
func queryAll(db *sql.DB, q string) ([][]any, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// sameRows compares rows exactly, floats to a relative 1e-12.
func sameRows(a, b [][]any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			x, xf := a[i][j].(float64)
			y, yf := b[i][j].(float64)
			if xf && yf {
				if math.Abs(x-y) > 1e-12*math.Max(math.Abs(x), math.Abs(y)) {
					return false
				}
				continue
			}
			if !reflect.DeepEqual(a[i][j], b[i][j]) {
				return false
			}
		}
	}
	return true
}
