package driver

import (
	"database/sql"
	"reflect"
	"testing"
	"time"
)

// A TIMETZ reaches Go as a time.Time on 0001-01-01 in a fixed zone of its
// offset (as duckdb-go gives it), named TIMETZ.
func TestTimeTZThroughDatabaseSQL(t *testing.T) {
	db, err := sql.Open("carquet", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT '12:34:56.5+05:30'::TIMETZ, '23:00:00-02'::TIMETZ")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if types[0].DatabaseTypeName() != "TIMETZ" || types[0].ScanType() != reflect.TypeOf(time.Time{}) {
		t.Errorf("column type %s, scan type %v", types[0].DatabaseTypeName(), types[0].ScanType())
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	var a, b time.Time
	if err := rows.Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got  time.Time
		want string
		off  int
	}{{a, "0001-01-01 12:34:56.5", 5*3600 + 30*60}, {b, "0001-01-01 23:00:00", -2 * 3600}} {
		_, off := c.got.Zone()
		if c.got.Format("2006-01-02 15:04:05.999999") != c.want || off != c.off {
			t.Errorf("got %v, want %s with offset %d", c.got, c.want, c.off)
		}
	}
}
