package driver

import (
	"testing"
	"time"
)

func TestZZAutocommit(t *testing.T) {
	db := openDSN(t, t.TempDir())
	mustExec(t, db, "CREATE TABLE t (w INT, i INT)")
	start := time.Now()
	for i := range 1000 {
		mustExec(t, db, "INSERT INTO t VALUES (?, ?)", 1, i)
	}
	t.Logf("1000 autocommit inserts: %v", time.Since(start))
}
