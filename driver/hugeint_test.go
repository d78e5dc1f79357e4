package driver

import (
	"database/sql"
	"math/big"
	"reflect"
	"testing"
)

// A HUGEINT reaches Go as a *big.Int (as duckdb-go gives it), over the
// whole 128-bit range, and a *big.Int parameter is stored exactly.
func TestHugeintThroughDatabaseSQL(t *testing.T) {
	db, err := sql.Open("carquet", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE h (x HUGEINT)"); err != nil {
		t.Fatal(err)
	}
	param, _ := new(big.Int).SetString("-12345678901234567890123456789012345678", 10)
	if _, err := db.Exec("INSERT INTO h VALUES (?), (NULL)", param); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT x, x * 10 // 10, 170141183460469231731687303715884105727 FROM h ORDER BY x")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	for _, ct := range types {
		if ct.DatabaseTypeName() != "HUGEINT" || ct.ScanType() != reflect.TypeOf((*big.Int)(nil)) {
			t.Errorf("%s: %s, scan type %v", ct.Name(), ct.DatabaseTypeName(), ct.ScanType())
		}
	}
	maxHuge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	var got [][3]*big.Int
	for rows.Next() {
		var r [3]*big.Int
		if err := rows.Scan(&r[0], &r[1], &r[2]); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0][0].Cmp(param) != 0 || got[0][1].Cmp(param) != 0 || got[0][2].Cmp(maxHuge) != 0 || got[1][0] != nil || got[1][1] != nil {
		t.Errorf("rows %v", got)
	}
	// database/sql converts a *big.Int to the integer and float types.
	var n int64
	if err := db.QueryRow("SELECT x // 1000000000000000000000 FROM h WHERE x IS NOT NULL").Scan(&n); err != nil || n != -12345678901234567 {
		t.Errorf("as an int64: %d, %v", n, err)
	}
}

// A UHUGEINT reaches Go as a *big.Int too, up to 2^128-1.
func TestUhugeintThroughDatabaseSQL(t *testing.T) {
	db, err := sql.Open("carquet", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got *big.Int
	row := db.QueryRow("SELECT 340282366920938463463374607431768211455")
	if err := row.Scan(&got); err != nil || got.String() != "340282366920938463463374607431768211455" {
		t.Errorf("got %v, %v", got, err)
	}
	// *big.Int parameters past 38 digits are HUGEINT or UHUGEINT values.
	for _, s := range []string{"170141183460469231731687303715884105727", "-170141183460469231731687303715884105728", "340282366920938463463374607431768211455"} {
		p, _ := new(big.Int).SetString(s, 10)
		var text string
		if err := db.QueryRow("SELECT ?::VARCHAR", p).Scan(&text); err != nil || text != s {
			t.Errorf("parameter %s: %q, %v", s, text, err)
		}
	}
	rows, err := db.Query("SELECT 1::UHUGEINT")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "UHUGEINT" || types[0].ScanType() != reflect.TypeOf((*big.Int)(nil)) {
		t.Errorf("%s, scan type %v", types[0].DatabaseTypeName(), types[0].ScanType())
	}
}
