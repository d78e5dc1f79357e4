package driver

import (
	"context"
	"database/sql"
	"testing"
)

// TestSettingsScope checks the scopes of SET across the connections of a
// pool, as in DuckDB: a plain SET of integer_division or TimeZone and a
// SET SESSION change only their connection, a plain SET of
// default_null_order and a SET GLOBAL change every connection.
func TestSettingsScope(t *testing.T) {
	ctx := context.Background()
	a, b := twoConns(t)
	get := func(c *sql.Conn, name string) string {
		t.Helper()
		var v string
		if err := c.QueryRowContext(ctx, "SELECT CAST(current_setting('"+name+"') AS VARCHAR)").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	exec := func(c *sql.Conn, q string) {
		t.Helper()
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(a, "SET integer_division = true")
	exec(a, "SET TimeZone = 'Asia/Tokyo'")
	if got, other := get(a, "integer_division"), get(b, "integer_division"); got != "true" || other != "false" {
		t.Errorf("integer_division: a %s, b %s; want true, false", got, other)
	}
	if got, other := get(a, "TimeZone"), get(b, "TimeZone"); got != "Asia/Tokyo" || other != "UTC" {
		t.Errorf("TimeZone: a %s, b %s; want Asia/Tokyo, UTC", got, other)
	}
	var q float64
	if err := b.QueryRowContext(ctx, "SELECT 7 / 2").Scan(&q); err != nil || q != 3.5 {
		t.Errorf("7 / 2 on b: %v, %v; want 3.5", q, err)
	}
	if err := a.QueryRowContext(ctx, "SELECT 7 / 2").Scan(&q); err != nil || q != 3 {
		t.Errorf("7 / 2 on a: %v, %v; want 3", q, err)
	}
	exec(a, "SET default_null_order = 'nulls_first'")
	if got := get(b, "default_null_order"); got != "NULLS_FIRST" {
		t.Errorf("a plain SET of default_null_order: b sees %s", got)
	}
	exec(b, "SET SESSION default_null_order = 'postgres'")
	exec(a, "SET GLOBAL default_null_order = 'nulls_last'")
	if got, other := get(a, "default_null_order"), get(b, "default_null_order"); got != "NULLS_LAST" || other != "NULLS_LAST_ON_ASC_FIRST_ON_DESC" {
		t.Errorf("default_null_order: a %s, b %s", got, other)
	}
	exec(b, "RESET SESSION default_null_order")
	if got := get(b, "default_null_order"); got != "NULLS_LAST" {
		t.Errorf("after RESET SESSION: %s", got)
	}
	exec(a, "SET threads = 1")
	if got := get(b, "threads"); got != "1" {
		t.Errorf("threads on b: %s", got)
	}
	exec(a, "RESET integer_division")
	if got := get(a, "integer_division"); got != "false" {
		t.Errorf("after RESET: %s", got)
	}
}
