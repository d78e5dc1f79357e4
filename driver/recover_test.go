package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/sqlplan"
)

// TestRowsNextPanicIsAnError forces a panic while a row is handed out
// (by swapping a column's converter for one that panics): Next must
// return an "internal error" with the stack, and the program go on.
func TestRowsNextPanicIsAnError(t *testing.T) {
	db, _ := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (a BIGINT)")
	mustExec(t, db, "INSERT INTO t VALUES (1), (2)")
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		rows, err := dc.(*Conn).QueryContext(context.Background(), "SELECT a FROM t", nil)
		if err != nil {
			return err
		}
		defer rows.Close()
		r := rows.(*Rows)
		r.conv[0] = func(*sqlplan.Col, int) driver.Value { panic("boom in a converter") }
		dest := make([]driver.Value, 1)
		err = r.Next(dest)
		if err == nil || !strings.Contains(err.Error(), "internal error: boom in a converter") || !strings.Contains(err.Error(), "recoverInternal") {
			t.Errorf("Next: %v, want an internal error with the stack", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The database is still usable.
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Fatalf("after the panic: %d, %v", n, err)
	}
}

// TestErrorKindsReexported checks that the driver's error values are the
// engine's and the file layer's, so that errors.Is works across layers.
func TestErrorKindsReexported(t *testing.T) {
	for _, tc := range []struct{ driver, sqlplan error }{
		{ErrCorrupt, sqlplan.ErrCorrupt}, {ErrChecksum, sqlplan.ErrChecksum}, {ErrUnsupported, sqlplan.ErrUnsupported},
		{ErrEncrypted, sqlplan.ErrEncrypted}, {ErrDecrypt, sqlplan.ErrDecrypt}, {ErrNotParquet, sqlplan.ErrNotParquet},
		{ErrSchemaMismatch, sqlplan.ErrSchemaMismatch}, {ErrLimit, sqlplan.ErrLimit},
	} {
		if tc.driver != tc.sqlplan {
			t.Errorf("%v differs from sqlplan's", tc.driver)
		}
	}
	if !errors.Is(ErrChecksum, ErrCorrupt) {
		t.Error("a checksum error is not ErrCorrupt")
	}
	db, _ := openTest(t, "")
	if _, err := db.Exec("ATTACH 'other.duckdb'"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("ATTACH of a DuckDB file: %v", err)
	}
}

// TestFileErrorsThroughTheDriver reads a file whose page checksum is wrong
// with the default DSN (checksums verified): the query fails with ErrChecksum (and
// ErrCorrupt), naming the file.
func TestFileErrorsThroughTheDriver(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(testfiles.Path(t, "data/datapage_v1-corrupt-checksum.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.parquet"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT * FROM bad")
	if err == nil {
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
	}
	if !errors.Is(err, ErrChecksum) || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "bad.parquet") {
		t.Fatalf("err = %v, want ErrChecksum naming the file", err)
	}
}

// TestLimitsDSN sets reader limits in the DSN: a page above max_page_size
// fails the query with ErrLimit naming the file.
func TestLimitsDSN(t *testing.T) {
	cfg, err := ParseDSN("/x?max_page_size=100&max_dictionary_size=200&max_batch_bytes=300")
	if err != nil || cfg.Limits.MaxPageSize != 100 || cfg.Limits.MaxDictionarySize != 200 || cfg.Limits.MaxBatchBytes != 300 {
		t.Fatalf("%+v, %v", cfg.Limits, err)
	}
	for _, bad := range []string{"/x?max_page_size=0", "/x?max_batch_bytes=-1", "/x?max_dictionary_size=4294967296"} {
		if _, err := ParseDSN(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE t (s VARCHAR)")
	mustExec(t, db, "INSERT INTO t VALUES ('"+strings.Repeat("x", 1000)+"')")
	limited, err := sql.Open("carquet", dir+"?max_page_size=100")
	if err != nil {
		t.Fatal(err)
	}
	defer limited.Close()
	var s string
	err = limited.QueryRow("SELECT s FROM t").Scan(&s)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "t.parquet") {
		t.Fatalf("err = %v, want ErrLimit naming the file", err)
	}
	if err := db.QueryRow("SELECT s FROM t").Scan(&s); err != nil || len(s) != 1000 {
		t.Fatalf("without limits: %d bytes, %v", len(s), err)
	}

	// max_scan_memory: a row group needing more than the scan may hold.
	if cfg, err := ParseDSN("/x?max_scan_memory=8589934592"); err != nil || cfg.Limits.MaxScanMemory != 8<<30 {
		t.Fatalf("%+v, %v", cfg.Limits, err)
	}
	small, err := sql.Open("carquet", dir+"?max_scan_memory=100")
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	err = small.QueryRow("SELECT s FROM t").Scan(&s)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxScanMemory") {
		t.Fatalf("err = %v, want ErrLimit naming the scan memory limit", err)
	}
	roomy, err := sql.Open("carquet", dir+"?max_scan_memory=1000000")
	if err != nil {
		t.Fatal(err)
	}
	defer roomy.Close()
	if err := roomy.QueryRow("SELECT s FROM t").Scan(&s); err != nil || len(s) != 1000 {
		t.Fatalf("under a scan limit it fits: %d bytes, %v", len(s), err)
	}
}

// TestConformanceFilesThroughSQL queries every conformance file, good and
// bad, through database/sql (with reader limits, as a server taking
// untrusted files would set them): each gives rows or an error, never an
// internal error (a recovered panic).
func TestConformanceFilesThroughSQL(t *testing.T) {
	var files []string
	for _, sub := range []string{"data", "bad_data"} {
		files = append(files, testfiles.Glob(t, sub, ".parquet")...)
	}
	read, failed := 0, 0
	for _, p := range files {
		dir := t.TempDir()
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f.parquet"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("carquet", dir+"?max_page_size=16777216&max_dictionary_size=16777216&max_batch_bytes=67108864")
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"SELECT * FROM f", "SELECT count(*) FROM f"} {
			rows, err := db.Query(q)
			if err == nil {
				cols, _ := rows.Columns()
				dest := make([]any, len(cols))
				for i := range dest {
					dest[i] = new(any)
				}
				for rows.Next() {
					if err = rows.Scan(dest...); err != nil {
						break
					}
				}
				if err == nil {
					err = rows.Err()
				}
				rows.Close()
			}
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: %s: %v", filepath.Base(p), q, err)
			}
			if err != nil {
				failed++
			} else {
				read++
			}
		}
		db.Close()
	}
	t.Logf("%d files: %d queries answered, %d failed with an error", len(files), read, failed)
	if read < len(files) {
		t.Errorf("only %d of %d queries answered: the good files should read", read, 2*len(files))
	}
}
