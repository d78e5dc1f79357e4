package driver

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/testfiles"
)

// TestConformanceFiles reads every file of the shared parquet-testing
// suite through SQL: SELECT * to the end, COUNT(*), and DESCRIBE. A file
// the scan cannot read must give an error, never a panic or a hang.
func TestConformanceFiles(t *testing.T) {
	files := testfiles.Glob(t, "data", ".parquet")
	ok, failed := 0, 0
	for _, path := range files {
		db, err := OpenDB(Config{Path: filepath.Dir(path)})
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		if name == "large_string_map.brotli.parquet" {
			// Refused after about a minute of decompression (reported to
			// parquet/file); too slow for this suite.
			db.Close()
			continue
		}
		start := time.Now()
		err = readAll(db, fmt.Sprintf("SELECT * FROM `%s` LIMIT 5000", name))
		if err == nil {
			err = readAll(db, fmt.Sprintf("SELECT count(*) FROM `%s`", name))
		}
		if err == nil {
			err = readAll(db, fmt.Sprintf("DESCRIBE `%s`", name))
		}
		if d := time.Since(start); d > time.Second {
			t.Logf("%s: %v", name, d)
		}
		if err != nil {
			t.Logf("%s: %v", name, err)
			if strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: %v", name, err)
			}
			failed++
		} else {
			ok++
		}
		db.Close()
	}
	t.Logf("%d files read, %d refused with an error", ok, failed)
}

func readAll(db *sql.DB, q string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
	}
	return rows.Err()
}
