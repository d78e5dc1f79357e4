package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"testing"
)

// TestConnectionCount checks duckdb_connection_count(): each open
// connection counts, a closed one no longer does.
func TestConnectionCount(t *testing.T) {
	db, err := OpenDB(Config{Path: t.TempDir(), Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	count := func(c *sql.Conn) uint64 {
		var n uint64
		if err := c.QueryRowContext(ctx, "SELECT count FROM duckdb_connection_count()").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(conns[0]); n != 3 {
		t.Fatalf("3 connections open: count %d", n)
	}
	// ErrBadConn from Raw makes database/sql close the driver's connection
	// rather than keep it in the pool.
	for _, c := range conns[1:] {
		if err := c.Raw(func(any) error { return driver.ErrBadConn }); err == nil {
			t.Fatal("Raw did not report the error")
		}
		c.Close()
	}
	if n := count(conns[0]); n != 1 {
		t.Fatalf("1 connection open: count %d", n)
	}
}
