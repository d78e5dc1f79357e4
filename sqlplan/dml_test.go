package sqlplan

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/writer"
)

// TestUpdateDelete: the rows counted as affected, the table's options and
// the footer's other key-value metadata kept, and INSERTs running at the
// same time as UPDATEs neither deadlock nor get lost.
func TestUpdateDelete(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR) WITH (compression = 'gzip')")
	exec(t, e, "INSERT INTO t SELECT range, 'v' || range FROM range(100)")
	path, _, _ := e.tablePath("t")

	// A foreign key-value pair, as another writer leaves one.
	w, err := writer.Append(path, nil, writer.WithKeyValue("other.tool", "kept"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	e.forget(path)

	if r := exec(t, e, "UPDATE t SET v = 'even' WHERE id % 2 = 0"); r.RowsAffected != 50 {
		t.Errorf("UPDATE: %d rows affected, want 50", r.RowsAffected)
	}
	if r := exec(t, e, "DELETE FROM t WHERE id >= 90"); r.RowsAffected != 10 {
		t.Errorf("DELETE: %d rows affected, want 10", r.RowsAffected)
	}
	if got := queryAll(t, e, "SELECT count(*), count(*) FILTER (WHERE v = 'even'), max(id) FROM t"); fmt.Sprint(got) != "[[90 45 89]]" {
		t.Errorf("after UPDATE and DELETE: %v", got)
	}
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := f.KeyValue("other.tool"); !ok || v != "kept" {
		t.Errorf("foreign key-value metadata after the rewrite: %q %v", v, ok)
	}
	if opts := decodeOptions(f); opts["compression"] != "gzip" {
		t.Errorf("table options after the rewrite: %v", opts)
	}
	if c := f.Meta.RowGroups[0].Columns[0].MetaData.Codec.String(); c != "GZIP" {
		t.Errorf("the rewritten file's codec: %s", c)
	}
	f.Close()

	// INSERTs alongside UPDATEs: every inserted row is there at the end.
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				s, err := e.Prepare(fmt.Sprintf("INSERT INTO t VALUES (%d, 'new')", 1000+g*100+i))
				if err == nil {
					_, err = s.Exec(context.Background(), nil, nil)
				}
				errs <- err
			}
		}(g)
	}
	for i := 0; i < 5; i++ {
		exec(t, e, "UPDATE t SET v = v || '!' WHERE id < 3")
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := queryAll(t, e, "SELECT count(*) FILTER (WHERE v = 'new'), count(*), max(v) FILTER (WHERE id = 1) FROM t"); fmt.Sprint(got) != "[[20 110 v1!!!!!]]" {
		t.Errorf("after concurrent INSERTs and UPDATEs: %v", got)
	}
}

// TestCopyTo: COPY writes the query's rows with the options asked for,
// and replaces the file when it exists; CREATE OR REPLACE TABLE too.
func TestCopyTo(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "COPY (SELECT range AS x FROM range(10)) TO 'c.parquet' (FORMAT PARQUET, COMPRESSION snappy, ROW_GROUP_SIZE 3)")
	path, _, _ := e.tablePath("c.parquet")
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if n, c := len(f.Meta.RowGroups), f.Meta.RowGroups[0].Columns[0].MetaData.Codec.String(); n != 4 || c != "SNAPPY" {
		t.Errorf("COPY ... (COMPRESSION snappy, ROW_GROUP_SIZE 3) of 10 rows: %d row groups, %s", n, c)
	}
	f.Close()
	if r := exec(t, e, "COPY (SELECT 'a' AS s) TO 'c.parquet'"); r.RowsAffected != 1 {
		t.Errorf("COPY: %d rows affected, want 1", r.RowsAffected)
	}
	if got := queryAll(t, e, "SELECT * FROM c"); fmt.Sprint(got) != "[[a]]" {
		t.Errorf("after COPY over the file: %v", got)
	}
	exec(t, e, "CREATE OR REPLACE TABLE c AS SELECT s || s AS s2 FROM c")
	if got := queryAll(t, e, "SELECT * FROM c"); fmt.Sprint(got) != "[[aa]]" {
		t.Errorf("after CREATE OR REPLACE TABLE: %v", got)
	}
}
