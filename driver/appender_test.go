package driver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/vector"
)

// withAppender runs fn with an Appender of table on a connection of db.
func withAppender(t *testing.T, db *sql.DB, table string, fn func(a *Appender) error) error {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		a, err := NewAppender(dc, table)
		if err != nil {
			return err
		}
		return fn(a)
	})
}

// TestAppender loads rows of many types through the bulk API: nothing is
// visible before Close, every row after it, in full row groups; Abort
// leaves the table as it was; a bad row is refused alone.
func TestAppender(t *testing.T) {
	dir := t.TempDir()
	db := openDSN(t, dir+"?row_group_rows=30000")
	mustExec(t, db, "CREATE TABLE ev (id BIGINT NOT NULL, name VARCHAR, v DOUBLE, day DATE, at TIMESTAMP, amount DECIMAL(12,2), tags VARCHAR[])")
	mustExec(t, db, "INSERT INTO ev VALUES (-1, 'first', 0, DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', 1.50, ['a'])")
	const n = 100000
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	count := func() int64 {
		var k int64
		if err := db.QueryRow("SELECT count(*) FROM ev").Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	err := withAppender(t, db, "ev", func(a *Appender) error {
		for i := range n {
			var name any = fmt.Sprint("n", i)
			if i%10 == 0 {
				name = nil
			}
			if err := a.AppendRow(int64(i), name, float64(i)/4, day.AddDate(0, 0, i%30), day.Add(time.Duration(i)*time.Second), fmt.Sprintf("%d.%02d", i, i%100), []any{"x", fmt.Sprint(i % 3)}); err != nil {
				return err
			}
			if i == n/2 {
				if k := count(); k != 1 {
					return fmt.Errorf("%d rows visible before Close", k)
				}
			}
		}
		if err := a.AppendRow("not a number", nil, nil, nil, nil, nil, nil); err == nil {
			return errors.New("a row with a string id was taken")
		}
		if a.Rows() != n {
			return fmt.Errorf("Rows() = %d", a.Rows())
		}
		return a.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	var k, nulls, sumID int64
	var sumV float64
	var amount, maxDay, tag string
	if err := db.QueryRow(`SELECT count(*), count(*) - count(name), sum(id), sum(v), CAST(sum(amount) AS VARCHAR), CAST(max(day) AS VARCHAR), max(tags[2])
		FROM ev WHERE id >= 0`).Scan(&k, &nulls, &sumID, &sumV, &amount, &maxDay, &tag); err != nil {
		t.Fatal(err)
	}
	if k != n || nulls != n/10 || sumID != n*(n-1)/2 || sumV != float64(n*(n-1)/2)/4 || maxDay != "2024-03-30" || tag != "2" {
		t.Errorf("after Close: %d rows, %d null names, sum(id) %d, sum(v) %v, max(day) %s, tag %s", k, nulls, sumID, sumV, maxDay, tag)
	}
	var want float64
	for i := range n {
		want += float64(i) + float64(i%100)/100
	}
	if amount != fmt.Sprintf("%.2f", want) {
		t.Errorf("sum(amount) = %s, want %.2f", amount, want)
	}
	f, err := file.OpenFile(filepath.Join(dir, "ev.parquet"), file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if g := f.NumRowGroups(); g != 4 {
		t.Errorf("%d row groups for %d rows at 30000 a row group", g, n+1)
	}
	f.Close()

	// Abort: the table is as it was.
	err = withAppender(t, db, "ev", func(a *Appender) error {
		for i := range 1000 {
			if err := a.AppendRow(int64(i), "x", 1.0, day, day, "1", nil); err != nil {
				return err
			}
		}
		return a.Abort()
	})
	if err != nil {
		t.Fatal(err)
	}
	if k := count(); k != n+1 {
		t.Errorf("%d rows after an aborted append", k)
	}
	err = withAppender(t, db, "ev", func(a *Appender) error {
		if err := a.Close(); err != nil {
			return err
		}
		if err := a.AppendRow(int64(1), "x", 1.0, day, day, "1", nil); !errors.Is(err, ErrAppenderClosed) {
			return fmt.Errorf("AppendRow after Close: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAppenderFolderAndColumns: a folder table takes the rows as one new
// file; whole column vectors append as rows do.
func TestAppenderFolderAndColumns(t *testing.T) {
	dir := t.TempDir()
	db := openDSN(t, dir)
	mustExec(t, db, "CREATE TABLE f0 (id BIGINT, s VARCHAR)")
	if err := os.Mkdir(filepath.Join(dir, "f"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "f0.parquet"), filepath.Join(dir, "f", "f0.parquet")); err != nil {
		t.Fatal(err)
	}
	err := withAppender(t, db, "f", func(a *Appender) error {
		id := &vector.Vector{Kind: vector.Int64, Len: 3, Int64s: []int64{1, 2, 3}}
		s := &vector.Vector{Kind: vector.ByteArray, Len: 3, Offsets: []int32{0, 1, 2, 3}, Data: []byte("abc")}
		if err := a.AppendColumns([]*vector.Vector{id, s}); err != nil {
			return err
		}
		if err := a.AppendRow(int64(4), "d"); err != nil {
			return err
		}
		return a.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := db.QueryRow("SELECT string_agg(s, '' ORDER BY id) FROM f").Scan(&got); err != nil || got != "abcd" {
		t.Errorf("folder table after the append: %q %v", got, err)
	}
	mustExec(t, db, "CREATE TABLE pk (id BIGINT PRIMARY KEY)")
	if err := withAppender(t, db, "pk", func(a *Appender) error { return nil }); err == nil {
		t.Error("an Appender of a table with a primary key")
	}
	if err := withAppender(t, db, "nosuch", func(a *Appender) error { return nil }); err == nil {
		t.Error("an Appender of a table that does not exist")
	}
}
