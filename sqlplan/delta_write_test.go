package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/carquet-go/carquet/delta"
)

func TestDeltaCreateInsertTimeTravel(t *testing.T) {
	e, dir := deltaEngine(t)
	exec(t, e, "CREATE TABLE ev (id BIGINT NOT NULL, name VARCHAR, amount DOUBLE, d DATE, ts TIMESTAMPTZ, price DECIMAL(10,2)) USING delta")
	if !delta.IsTable(filepath.Join(dir, "ev")) {
		t.Fatal("no Delta table folder")
	}
	expectRows(t, e, "SELECT COUNT(*) FROM ev", "[[0]]")
	exec(t, e, "INSERT INTO ev VALUES (1, 'a', 1.5, DATE '2024-01-02', TIMESTAMPTZ '2024-01-02 03:04:05.123456+00', 3.25), (2, NULL, NULL, NULL, NULL, NULL)")
	exec(t, e, "INSERT INTO ev (id, name) VALUES (3, 'c')")
	exec(t, e, "INSERT INTO ev SELECT id + 10, name, amount, d, ts, price FROM ev")
	expectRows(t, e, "SELECT COUNT(*) FROM `ev@v0`", "[[0]]")
	expectRows(t, e, "SELECT id FROM `ev@v1` ORDER BY id", "[[1] [2]]")
	expectRows(t, e, "SELECT id FROM `ev@v2` ORDER BY id", "[[1] [2] [3]]")
	expectRows(t, e, "SELECT id, name FROM ev ORDER BY id", "[[1 a] [2 <nil>] [3 c] [11 a] [12 <nil>] [13 c]]")
	expectRows(t, e, "SELECT CAST(d AS VARCHAR), CAST(price AS VARCHAR), amount FROM ev WHERE id = 11", "[[2024-01-02 3.25 1.5]]")
	// Statistics prune files: id 13 is only in the last file.
	expectRows(t, e, "SELECT name FROM ev WHERE id = 13", "[[c]]")
	snap, err := delta.Open(filepath.Join(dir, "ev"), -1)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != 3 || len(snap.Files) != 3 || snap.Protocol.MinReaderVersion != 1 || snap.Protocol.MinWriterVersion != 2 {
		t.Fatalf("snapshot: version %d, %d files, protocol %+v", snap.Version, len(snap.Files), snap.Protocol)
	}
	st, err := snap.Files[0].Stats()
	if err != nil || st.NumRecords != 2 {
		t.Fatalf("stats %+v %v", st, err)
	}
	if fmt.Sprintf("%v %v %v %v %v", st.MinValues["id"], st.MaxValues["id"], st.NullCount["name"], st.MinValues["d"], st.MaxValues["ts"]) != "1 2 1 2024-01-02 2024-01-02T03:04:05.123Z" {
		t.Fatalf("stats %s: %s", fmt.Sprint(st.MinValues["id"], st.MaxValues["id"], st.NullCount["name"], st.MinValues["d"], st.MaxValues["ts"]), snap.Files[0].StatsJSON)
	}
	// The options of the Delta table, an engine on another connection and
	// the refusals.
	for _, q := range []string{"CREATE OR REPLACE TABLE ev (a INT) USING delta"} { // DROP TABLE: TestDeltaDrop
		s, err := e.Prepare(q)
		if err == nil {
			_, err = s.Exec(context.Background(), nil, nil)
		}
		if err == nil || !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: got %v", q, err)
		}
	}
	if s, err := e.Prepare("CREATE TABLE ev (a INT) USING delta"); err != nil {
		t.Fatal(err)
	} else if _, err := s.Exec(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("got %v", err)
	}
	exec(t, e, "CREATE TABLE IF NOT EXISTS ev (a INT) USING delta")
}

func TestDeltaCreateAsSelect(t *testing.T) {
	e, dir := deltaEngine(t)
	exec(t, e, "CREATE TABLE src (id INT, s VARCHAR, ts TIMESTAMP)")
	exec(t, e, "INSERT INTO src VALUES (1, 'x', TIMESTAMP '2024-05-06 07:08:09'), (2, 'y', NULL)")
	exec(t, e, "CREATE TABLE cp USING delta AS SELECT id, s, ts, id * 2 AS twice FROM src")
	expectRows(t, e, "SELECT id, s, CAST(ts AS VARCHAR), twice FROM cp ORDER BY id", "[[1 x 2024-05-06 07:08:09 2] [2 y <nil> 4]]")
	snap, err := delta.Open(filepath.Join(dir, "cp"), 0)
	if err != nil {
		t.Fatal(err)
	}
	// TIMESTAMP (without a time zone) is timestamp_ntz: a table feature.
	if p := snap.Protocol; p.MinReaderVersion != 3 || p.MinWriterVersion != 7 || !p.HasFeature("timestampNtz") {
		t.Fatalf("protocol %+v", p)
	}
	exec(t, e, "INSERT INTO cp VALUES (3, 'z', NULL, 6)")
	expectRows(t, e, "SELECT COUNT(*) FROM `cp@v0`", "[[2]]")
	expectRows(t, e, "SELECT COUNT(*) FROM cp", "[[3]]")
}

// Two engines (as two processes would) insert into one Delta table at
// once: every commit lands at its own version, every row once.
func TestDeltaConcurrentInserts(t *testing.T) {
	dir := t.TempDir()
	e1, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close()
	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	exec(t, e1, "CREATE TABLE c (w INT, i INT) USING delta")
	const per = 200
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w, e := range []*Engine{e1, e2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				s, err := e.Prepare(fmt.Sprintf("INSERT INTO c VALUES (%d, %d)", w, i))
				if err == nil {
					_, err = s.Exec(context.Background(), nil, nil)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	expectRows(t, e1, "SELECT COUNT(*), COUNT(DISTINCT w * 1000 + i) FROM c", fmt.Sprintf("[[%d %d]]", 2*per, 2*per))
	expectRows(t, e2, "SELECT w, COUNT(*), MIN(i), MAX(i) FROM c GROUP BY w ORDER BY w", fmt.Sprintf("[[0 %d 0 %d] [1 %d 0 %d]]", per, per-1, per, per-1))
	root := filepath.Join(dir, "c")
	ents, err := os.ReadDir(filepath.Join(root, delta.LogDir))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range ents {
		if strings.HasSuffix(d.Name(), ".json") && !strings.HasPrefix(d.Name(), ".") {
			if d.Name() != fmt.Sprintf("%020d.json", n) {
				t.Fatalf("log file %s, want version %d", d.Name(), n)
			}
			n++
		} else if !strings.HasSuffix(d.Name(), "0.checkpoint.parquet") && d.Name() != "_last_checkpoint" {
			t.Errorf("stray file in the log: %s", d.Name())
		}
	}
	if n != 2*per+1 {
		t.Fatalf("%d commits", n)
	}
	for v := int64(0); v <= 2*per; v++ {
		snap, err := delta.Open(root, v)
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Files) != int(v) {
			t.Fatalf("version %d: %d files", v, len(snap.Files))
		}
	}
}
