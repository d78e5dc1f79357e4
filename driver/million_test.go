package driver_test

import (
	"context"
	"database/sql"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/carquet-go/carquet/driver"
)

// TestMillionRowsEndToEnd is the end-to-end check: a program opens
// a folder with sql.Open, creates a table, inserts 1,000,000 rows in one
// transaction, queries them with a pushed-down filter, and EXPLAIN ANALYZE
// shows row groups and pages pruned.
func TestMillionRowsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("carquet", dir+"?row_group_rows=250000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE TABLE events (ts TIMESTAMP NOT NULL, user_id INTEGER NOT NULL, amount DOUBLE)"); err != nil {
		t.Fatal(err)
	}
	const n = 1_000_000
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO events VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := stmt.ExecContext(ctx, start.Add(time.Duration(i)*time.Second), i%50_000, float64(i%1000)/10); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var count int64
	cutoff := start.Add(990_000 * time.Second)
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM events WHERE ts >= ?", cutoff).Scan(&count); err != nil {
		t.Fatal(err)
	}
	if count != 10_000 {
		t.Fatalf("count = %d, want 10000", count)
	}
	rows, err := db.QueryContext(ctx, "EXPLAIN ANALYZE SELECT count(*) FROM events WHERE ts >= ?", cutoff)
	if err != nil {
		t.Fatal(err)
	}
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	rows.Close()
	text := plan.String()
	t.Logf("\n%s", text)
	if !strings.Contains(text, "pruned 3 by statistics") || !regexp.MustCompile(`pages \d+ \(pruned [1-9]`).MatchString(text) {
		t.Fatalf("EXPLAIN ANALYZE does not show row groups and pages pruned:\n%s", text)
	}
}
