package driver

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/sqllogic"
)

// TestSQLLogic runs ../sqltests/sql/*.test through database/sql against
// carquet, each file in a fresh folder (the sqltests module runs the same
// files against DuckDB to check the expectations themselves).
func TestSQLLogic(t *testing.T) {
	files, err := filepath.Glob("../sqltests/sql/*.test")
	if err != nil {
		t.Fatal(err)
	}
	sqllogic.RunFiles(t, files, "carquet", func(t *testing.T) *sql.DB {
		dir := t.TempDir()
		sqllogic.Seed(t, "../sqltests/sql", dir) // the file's data folder, if any
		db, err := OpenDB(Config{Path: dir, Threads: 2, Now: func() time.Time { return sqllogic.Now }})
		if err != nil {
			t.Fatal(err)
		}
		// One connection, as for DuckDB: session settings (SET) persist
		// from one record to the next.
		db.SetMaxOpenConns(1)
		return db
	})
}
