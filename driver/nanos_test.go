package driver

import (
	"database/sql"
	"testing"
	"time"
)

// TIMESTAMP_NS and TIME_NS reach Go with every digit, and a time.Time
// parameter with nanoseconds is stored and compared without losing them.
func TestNanosecondTimesThroughDatabaseSQL(t *testing.T) {
	db, err := sql.Open("carquet", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE n (ts TIMESTAMP_NS, t TIME_NS, us TIMESTAMP)"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2262, 4, 11, 23, 47, 16, 854775806, time.UTC)   // the last TIMESTAMP_NS (...807 is infinity)
	early := time.Date(1677, 9, 21, 0, 12, 43, 145224192, time.UTC) // the first
	if _, err := db.Exec("INSERT INTO n VALUES (?, '23:59:59.999999999', ?), (?, '00:00:00.000000001', NULL)", at, at, early); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT ts, t, us FROM n ORDER BY ts")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	if got := types[0].DatabaseTypeName() + " " + types[1].DatabaseTypeName(); got != "TIMESTAMP_NS TIME_NS" {
		t.Errorf("column types %s", got)
	}
	var got []time.Time
	for rows.Next() {
		var ts, tod time.Time
		var us sql.NullTime
		if err := rows.Scan(&ts, &tod, &us); err != nil {
			t.Fatal(err)
		}
		got = append(got, ts, tod)
		if us.Valid && !us.Time.Equal(at.Truncate(time.Microsecond)) {
			t.Errorf("TIMESTAMP column: %v, want %v truncated to microseconds", us.Time, at)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []time.Time{early, time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), at, time.Date(1, 1, 1, 23, 59, 59, 999999999, time.UTC)}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if !got[i].Equal(want[i]) {
			t.Errorf("value %d: %v, want %v", i, got[i], want[i])
		}
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM n WHERE ts = ?", at).Scan(&n); err != nil || n != 1 {
		t.Errorf("ts = parameter with nanoseconds: %d rows, %v", n, err)
	}
	if err := db.QueryRow("SELECT count(*) FROM n WHERE ts = ?", at.Add(-time.Nanosecond)).Scan(&n); err != nil || n != 0 {
		t.Errorf("ts = parameter one nanosecond earlier: %d rows, %v", n, err)
	}
}
