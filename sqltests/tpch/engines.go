package tpch

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	_ "github.com/carquet-go/carquet/driver" // registers "carquet"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// Engines names the two engines compared.
var Engines = []string{"carquet", "duckdb"}

// OpenCarquet opens carquet over dir (each NAME.parquet a table NAME),
// read-only, decoding with the given threads (0: its default).
func OpenCarquet(dir string, threads int) (*sql.DB, error) {
	dsn := dir + "?mode=ro"
	if threads > 0 {
		dsn += fmt.Sprintf("&threads=%d", threads)
	}
	db, err := sql.Open("carquet", dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// OpenDuckDB opens an in-memory DuckDB with SET threads (0: its default)
// and a view per table over dir/NAME.parquet, under the same bare names.
func OpenDuckDB(dir string, threads int) (*sql.DB, error) {
	db, err := peers.OpenDuckDB(threads)
	if err != nil {
		return nil, err
	}
	for _, t := range schemas {
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet(%s)", t.name, sqlString(filepath.Join(dir, t.name+".parquet")))
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("tpch: DuckDB view %s: %w", t.name, err)
		}
	}
	return db, nil
}

// Open opens engine ("carquet" or "duckdb") over dir.
func Open(engine, dir string, threads int) (*sql.DB, error) {
	switch engine {
	case "carquet":
		return OpenCarquet(dir, threads)
	case "duckdb":
		return OpenDuckDB(dir, threads)
	}
	return nil, fmt.Errorf("tpch: unknown engine %q", engine)
}

// Result is a query's answer: column names, the engine's type names, and
// every value as database/sql scanned it into an any.
type Result struct {
	Columns []string
	Types   []string
	Rows    [][]any
}

// Run runs text on db and reads every row.
func Run(ctx context.Context, db *sql.DB, text string) (*Result, error) {
	rows, err := db.QueryContext(ctx, text)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	r := &Result{}
	for _, c := range cts {
		r.Columns = append(r.Columns, c.Name())
		r.Types = append(r.Types, c.DatabaseTypeName())
	}
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		r.Rows = append(r.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return r, rows.Close()
}

// Drain runs text on db and scans every row, keeping nothing: the work a
// timed run does.
func Drain(ctx context.Context, db *sql.DB, text string) (int, error) {
	rows, err := db.QueryContext(ctx, text)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	return n, rows.Close()
}
