package sqlplan

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// hiveTable makes the table h partitioned by region and year, of six
// rows in three partitions.
func hiveTable(t *testing.T, e *Engine) {
	t.Helper()
	exec(t, e, "CREATE TABLE 'h/region=eu/year=2024/a.parquet' (id BIGINT, v VARCHAR)")
	exec(t, e, "INSERT INTO h VALUES (1, 'a', 'eu', 2024), (2, 'b', 'us', 2025), (3, 'c', 'eu', 2024), (4, 'd', 'us', 2025), (5, 'e', 'eu', 2023), (6, 'f', NULL, 2023)")
}

// filesUnder returns the files of the table folder dir in the partition
// folder part.
func filesUnder(t *testing.T, dir, part string) []string {
	t.Helper()
	var out []string
	for _, f := range folderFiles(t, dir) {
		if filepath.ToSlash(filepath.Dir(f)) == part {
			out = append(out, f)
		}
	}
	return out
}

// TestHiveDelete: DELETE rewrites only the files of the partitions the
// WHERE may match; a partition left without rows keeps no file.
func TestHiveDelete(t *testing.T) {
	e := newEngine(t)
	hiveTable(t, e)
	dir := filepath.Join(e.root, "h")
	eu := fmt.Sprint(filesUnder(t, dir, "region=eu/year=2024"))
	if r := exec(t, e, "DELETE FROM h WHERE region = 'us' AND id = 2"); r.RowsAffected != 1 {
		t.Errorf("DELETE: %d rows affected", r.RowsAffected)
	}
	if got := fmt.Sprint(filesUnder(t, dir, "region=eu/year=2024")); got != eu {
		t.Errorf("a partition the WHERE cannot match was rewritten: %s, was %s", got, eu)
	}
	if got := queryAll(t, e, "SELECT id, region, year FROM h ORDER BY id"); fmt.Sprint(got) != "[[1 eu 2024] [3 eu 2024] [4 us 2025] [5 eu 2023] [6 <nil> 2023]]" {
		t.Errorf("after the DELETE: %v", got)
	}
	exec(t, e, "DELETE FROM h WHERE year = 2023")
	if got := filesUnder(t, dir, "region=eu/year=2023"); len(got) != 0 {
		t.Errorf("the emptied partition keeps files: %v", got)
	}
	exec(t, e, "DELETE FROM h")
	if got := queryAll(t, e, "SELECT count(*) FROM h"); fmt.Sprint(got) != "[[0]]" {
		t.Errorf("after DELETE of every row: %v", got)
	}
	exec(t, e, "INSERT INTO h VALUES (7, 'g', 'eu', 2024)")
	if got := queryAll(t, e, "SELECT id, v, region, year FROM h"); fmt.Sprint(got) != "[[7 g eu 2024]]" {
		t.Errorf("an INSERT into the emptied table: %v", got)
	}
}

// TestHiveUpdate: an UPDATE of file columns keeps rows in their
// partitions; one that SETs a partition column moves them to the
// folders of their new values (made when new), NULL to
// __HIVE_DEFAULT_PARTITION__.
func TestHiveUpdate(t *testing.T) {
	e := newEngine(t)
	hiveTable(t, e)
	dir := filepath.Join(e.root, "h")
	if r := exec(t, e, "UPDATE h SET v = upper(v) WHERE region = 'eu'"); r.RowsAffected != 3 {
		t.Errorf("UPDATE: %d rows affected", r.RowsAffected)
	}
	if r := exec(t, e, "UPDATE h SET region = 'asia', v = 'moved' WHERE id IN (2, 3)"); r.RowsAffected != 2 {
		t.Errorf("UPDATE: %d rows affected", r.RowsAffected)
	}
	exec(t, e, "UPDATE h SET year = NULL WHERE id = 5")
	exec(t, e, "UPDATE h SET region = 'eu' WHERE region IS NULL")
	want := "[[1 A eu 2024] [2 moved asia 2025] [3 moved asia 2024] [4 d us 2025] [5 E eu <nil>] [6 f eu 2023]]"
	if got := queryAll(t, e, "SELECT id, v, region, year FROM h ORDER BY id"); fmt.Sprint(got) != want {
		t.Errorf("after the UPDATEs: %v\nwant %s", got, want)
	}
	dirs := map[string]int{}
	for _, f := range folderFiles(t, dir) {
		dirs[filepath.ToSlash(filepath.Dir(f))]++
	}
	// The empty file CREATE TABLE made stays: the WHERE cannot match it.
	wantDirs := map[string]int{"region=eu/year=2024": 2, "region=asia/year=2025": 1, "region=asia/year=2024": 1, "region=us/year=2025": 1,
		"region=eu/year=__HIVE_DEFAULT_PARTITION__": 1, "region=eu/year=2023": 1}
	if fmt.Sprint(dirs) != fmt.Sprint(wantDirs) {
		t.Errorf("files by folder: %v, want %v", dirs, wantDirs)
	}
	// A value that does not fit the partition column fails the statement,
	// which changes nothing.
	before := fmt.Sprint(folderFiles(t, dir))
	if err := execErr(e, "UPDATE h SET year = 'soon' WHERE id = 4", nil); err == nil {
		t.Errorf("a year that is not a number was taken")
	}
	if got := fmt.Sprint(folderFiles(t, dir)); got != before {
		t.Errorf("the failed UPDATE changed the files: %s, was %s", got, before)
	}
	if got := queryAll(t, e, "SELECT id, v, region, year FROM h ORDER BY id"); fmt.Sprint(got) != want {
		t.Errorf("after the failed UPDATE: %v", got)
	}
}

// TestHiveMerge: MERGE updates, deletes and inserts in a hive table, the
// inserted rows in the folders of their partitions.
func TestHiveMerge(t *testing.T) {
	e := newEngine(t)
	hiveTable(t, e)
	exec(t, e, "CREATE TABLE src (id BIGINT, v VARCHAR, region VARCHAR)")
	exec(t, e, "INSERT INTO src VALUES (1, 'x', 'eu'), (2, NULL, 'us'), (9, 'new', 'jp')")
	exec(t, e, `MERGE INTO h USING src ON h.id = src.id
		WHEN MATCHED AND src.v IS NULL THEN DELETE
		WHEN MATCHED THEN UPDATE SET v = src.v, region = 'fr'
		WHEN NOT MATCHED THEN INSERT (id, v, region, year) VALUES (src.id, src.v, src.region, 2030)`)
	want := "[[1 x fr 2024] [3 c eu 2024] [4 d us 2025] [5 e eu 2023] [6 f <nil> 2023] [9 new jp 2030]]"
	if got := queryAll(t, e, "SELECT id, v, region, year FROM h ORDER BY id"); fmt.Sprint(got) != want {
		t.Errorf("after the MERGE: %v\nwant %s", got, want)
	}
	if got := filesUnder(t, filepath.Join(e.root, "h"), "region=jp/year=2030"); len(got) != 1 {
		t.Errorf("the inserted row's partition holds %v", got)
	}
	exec(t, e, "MERGE INTO h USING src ON h.id = src.id WHEN NOT MATCHED THEN INSERT (id, v, region, year) VALUES (src.id + 10, src.v, src.region, 2031)")
	// Only id 2 (deleted above) is not matched now.
	if got := queryAll(t, e, "SELECT id, v, region FROM h WHERE year = 2031"); fmt.Sprint(got) != "[[12 <nil> us]]" {
		t.Errorf("after the inserting MERGE: %v", got)
	}
}

// TestHiveUpdateReaders: readers running while UPDATEs move rows back and
// forth between partitions see every row once, never a moved row twice
// or not at all (run with -race).
func TestHiveUpdateReaders(t *testing.T) {
	e := newEngine(t)
	hiveTable(t, e)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, err := queryRows(t, e, "SELECT count(*), sum(id) FROM h")
				if err != nil {
					errs <- err.Error()
					return
				}
				if fmt.Sprint(got) != "[[6 21]]" {
					errs <- fmt.Sprint("a reader saw ", got)
					return
				}
			}
		}()
	}
	for i := 0; i < 10; i++ {
		to := []string{"'us'", "'eu'"}[i%2]
		exec(t, e, "UPDATE h SET region = "+to+" WHERE id IN (1, 2, 3)")
	}
	close(stop)
	wg.Wait()
	close(errs)
	var all []string
	for m := range errs {
		all = append(all, m)
	}
	if len(all) > 0 {
		t.Error(strings.Join(all, "\n"))
	}
}
