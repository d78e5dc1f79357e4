package driver

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan"
)

// TestMemoryLimitDSN: memory_limit= in the DSN is memory_limit's default;
// a query whose hash table needs more fails with an error naming the
// limit, and runs under a larger one or after SET memory_limit.
func TestMemoryLimitDSN(t *testing.T) {
	if cfg, err := ParseDSN("/x?memory_limit=2GB"); err != nil || cfg.MemoryLimit != 2e9 {
		t.Fatalf("%d, %v", cfg.MemoryLimit, err)
	}
	if cfg, err := ParseDSN("/x?memory_limit=512MiB"); err != nil || cfg.MemoryLimit != 512<<20 {
		t.Fatalf("%d, %v", cfg.MemoryLimit, err)
	}
	for _, bad := range []string{"/x?memory_limit=lots", "/x?memory_limit=1XB", "/x?memory_limit=0"} {
		if _, err := ParseDSN(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE a AS SELECT range AS id FROM range(200000)")
	const q = "SELECT count(*) FROM a JOIN a AS b ON a.id = b.id"
	small, err := sql.Open("carquet", dir+"?memory_limit=1MB")
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	var n int64
	err = small.QueryRow(q).Scan(&n)
	if !errors.Is(err, sqlplan.ErrMemoryLimit) || !strings.Contains(err.Error(), "memory_limit 976.5 KiB") {
		t.Fatalf("err = %v, want the memory_limit error", err)
	}
	var shown string
	if err := small.QueryRow("SELECT current_setting('memory_limit')").Scan(&shown); err != nil || shown != "976.5 KiB" {
		t.Fatalf("memory_limit shows %q, %v", shown, err)
	}
	mustExec(t, small, "SET memory_limit = '1GB'")
	if err := small.QueryRow(q).Scan(&n); err != nil || n != 200000 {
		t.Fatalf("under 1GB: %d, %v", n, err)
	}
	roomy, err := sql.Open("carquet", dir+"?memory_limit=1GB")
	if err != nil {
		t.Fatal(err)
	}
	defer roomy.Close()
	if err := roomy.QueryRow(q).Scan(&n); err != nil || n != 200000 {
		t.Fatalf("memory_limit=1GB: %d, %v", n, err)
	}
}
