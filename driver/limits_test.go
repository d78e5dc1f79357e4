package driver

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan"
)

// The SQL limits and the context reach the engine through database/sql.
func TestLimitsAndDeadline(t *testing.T) {
	db, err := sql.Open("carquet", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 1_000_000
	deep := "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n)
	start := time.Now()
	_, err = db.QueryContext(context.Background(), deep)
	var se *sqlplan.Error
	if !errors.As(err, &se) || !errors.Is(err, sqlplan.ErrLimit) || !strings.Contains(se.Msg, "deeper than 1000 levels") {
		t.Errorf("1M nested parentheses: %v", err)
	}
	if _, err := db.ExecContext(context.Background(), deep); !errors.Is(err, sqlplan.ErrLimit) {
		t.Errorf("Exec of 1M nested parentheses: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start = time.Now()
	var count int64
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM range(100000) a(x), range(100000) b(y) WHERE x + y < 0").Scan(&count)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a slow query past its deadline: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the slow query returned after %v", d)
	}
	// A context done before Prepare stops it.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := db.PrepareContext(ctx, "SELECT 1 AS prepared_late"); !errors.Is(err, context.Canceled) {
		t.Errorf("Prepare with a cancelled context: %v", err)
	}
}
