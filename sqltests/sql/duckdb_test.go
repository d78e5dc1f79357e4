//go:build duckdb

// Package sqltest holds the SQL conformance files (*.test). This test runs
// them against DuckDB to check the expectations themselves; carquet runs
// them from driver/sqllogic_test.go, with the same runner
// (internal/sqllogic).
//
// Run it from the sqltests module: go test -tags duckdb ./sql/
package sqltest

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/internal/sqllogic"
	_ "github.com/duckdb/duckdb-go/v2"
)

func TestSQLLogicDuckDB(t *testing.T) {
	files, err := filepath.Glob("*.test")
	if err != nil {
		t.Fatal(err)
	}
	sqlDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	sqllogic.RunFiles(t, files, "duckdb", func(t *testing.T) *sql.DB {
		// Each file in a fresh folder, as carquet runs it: the files a
		// test writes (COPY ... TO 'f.parquet') land there, and relative
		// paths name the same files in both engines.
		dir := t.TempDir()
		sqllogic.Seed(t, sqlDir, dir) // the file's data folder, if any
		t.Chdir(dir)
		db, err := sql.Open("duckdb", "")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		return db
	})
}
