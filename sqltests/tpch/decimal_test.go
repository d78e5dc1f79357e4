package tpch

import (
	"context"
	"database/sql"
	"testing"
)

// The money sum of issue 28: DECIMAL(15,2) arithmetic over every lineitem
// row, against the same sum with DOUBLE casts. Run at SF 1 (6M rows) with
//
//	cd sqltests && CARQUET_TPCH_SF=1 go test -run XXX -bench DecimalSum -benchtime 5x -count 6 ./tpch/ | tee /tmp/ds.txt
var decimalSums = []struct{ name, sql string }{
	{"decimal", "SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem"},
	{"double", "SELECT sum(CAST(l_extendedprice AS DOUBLE) * (1 - CAST(l_discount AS DOUBLE))) FROM lineitem"},
}

// TestDecimalSumDigits checks that carquet's decimal sum prints the same
// digits as DuckDB's, on both writers' files, and that its type is
// DuckDB's DECIMAL(38,4).
func TestDecimalSumDigits(t *testing.T) {
	d := dataset(t)
	for _, w := range Writers {
		carq, duck := openBoth(t, d.Path(w))
		q := decimalSums[0].sql
		got, gotType := sumText(t, carq, q)
		want, wantType := sumText(t, duck, q)
		if got != want {
			t.Errorf("%s files: carquet %s, DuckDB %s", w, got, want)
		}
		if gotType != wantType {
			t.Errorf("%s files: carquet type %s, DuckDB %s", w, gotType, wantType)
		}
		t.Logf("%s files: %s %s", w, got, gotType)
	}
}

// sumText runs q (one value) and returns the value as text, with the type
// the engine names for it (typeof).
func sumText(t *testing.T, db *sql.DB, q string) (string, string) {
	t.Helper()
	var v, typ string
	if err := db.QueryRow("SELECT CAST(s AS VARCHAR), typeof(s) FROM ("+q+") AS t(s)").Scan(&v, &typ); err != nil {
		t.Fatal(err)
	}
	return v, typ
}

// BenchmarkDecimalSum times both sums on both engines over carquet's
// files, at two threads each.
func BenchmarkDecimalSum(b *testing.B) {
	d := dataset(b)
	for _, e := range Engines {
		db, err := Open(e, d.Path("carquet"), 2)
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range decimalSums {
			b.Run(e+"/"+q.name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := Drain(context.Background(), db, q.sql); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		db.Close()
	}
}
