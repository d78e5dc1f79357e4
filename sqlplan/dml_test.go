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
	path, _ := e.tablePath("t")

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
