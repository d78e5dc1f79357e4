package sqlplan

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
)

// dataFiles hashes the table's Parquet data files by name.
func dataFiles(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	names, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = sha256.Sum256(b)
	}
	return out
}

func TestDeltaDeleteSmall(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "t")
	exec(t, e, "CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR) USING delta")
	exec(t, e, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	exec(t, e, "INSERT INTO t VALUES (10, 'x'), (11, 'y')")
	before := dataFiles(t, root)
	if r := exec(t, e, "DELETE FROM t WHERE id = 2 OR s = 'nothing'"); r.RowsAffected != 1 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	expectRows(t, e, "SELECT id, s FROM t ORDER BY id", "[[1 a] [3 c] [10 x] [11 y]]")
	expectRows(t, e, "SELECT COUNT(*) FROM t", "[[4]]")
	expectRows(t, e, "SELECT id FROM `t@v2` ORDER BY id", "[[1] [2] [3] [10] [11]]")
	if after := dataFiles(t, root); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatal("a data file changed")
	}
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	p := snap.Protocol
	if snap.Version != 3 || p.MinReaderVersion != 3 || p.MinWriterVersion != 7 || !p.HasFeature("deletionVectors") || !slices.Contains(p.WriterFeatures, "deletionVectors") {
		t.Fatalf("version %d protocol %+v", snap.Version, p)
	}
	var withDV int
	for _, f := range snap.Files {
		if d := f.DeletionVector; d != nil {
			withDV++
			if d.StorageType != dv.StorageInline || d.Cardinality != 1 {
				t.Fatalf("descriptor %+v", d)
			}
			if !strings.Contains(f.StatsJSON, `"tightBounds":false`) || !strings.Contains(f.StatsJSON, `"numRecords":3`) {
				t.Fatalf("stats %s", f.StatsJSON)
			}
		}
	}
	if withDV != 1 || len(snap.Files) != 2 {
		t.Fatalf("%d files, %d with a deletion vector", len(snap.Files), withDV)
	}
	// A second DELETE merges with the file's vector; rows already deleted
	// are not counted again; no match: no commit.
	if r := exec(t, e, "DELETE FROM t WHERE id <= 2"); r.RowsAffected != 1 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	if r := exec(t, e, "DELETE FROM t WHERE id > 100"); r.RowsAffected != 0 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	if v, _ := delta.Latest(root); v != 4 {
		t.Fatalf("latest version %d", v)
	}
	expectRows(t, e, "SELECT id FROM t ORDER BY id", "[[3] [10] [11]]")
	// UPDATE: the old versions are deleted, the new ones in a new file.
	if r := exec(t, e, "UPDATE t SET s = s || '!', id = id + 100 WHERE id >= 3 AND id < 11"); r.RowsAffected != 2 {
		t.Fatalf("updated %d", r.RowsAffected)
	}
	expectRows(t, e, "SELECT id, s FROM t ORDER BY id", "[[11 y] [103 c!] [110 x!]]")
	expectRows(t, e, "SELECT id, s FROM `t@v4` ORDER BY id", "[[3 c] [10 x] [11 y]]")
	if err := execErr(e, "UPDATE t SET id = NULL WHERE id = 11", nil); err == nil || !strings.Contains(err.Error(), "NOT NULL") {
		t.Fatalf("got %v", err)
	}
	// A subquery of the WHERE reads the whole table (its vectors applied).
	if r := exec(t, e, "DELETE FROM t WHERE id IN (SELECT id + 1 FROM t WHERE s = 'c!')"); r.RowsAffected != 0 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	if r := exec(t, e, "DELETE FROM t WHERE id IN (SELECT id + 7 FROM t WHERE s = 'c!')"); r.RowsAffected != 1 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	expectRows(t, e, "SELECT id FROM t ORDER BY id", "[[11] [103]]")
	// Files left without rows are removed.
	exec(t, e, "DELETE FROM t")
	expectRows(t, e, "SELECT COUNT(*) FROM t", "[[0]]")
	if snap, err := delta.Open(root, -1); err != nil || len(snap.Files) != 0 {
		t.Fatalf("%v", err)
	}
	exec(t, e, "INSERT INTO t VALUES (7, 'n')")
	expectRows(t, e, "SELECT id, s FROM t", "[[7 n]]")
	if after := dataFiles(t, root); len(after) != 4 {
		t.Fatalf("%d data files", len(after))
	}
	for k, h := range before {
		if dataFiles(t, root)[k] != h {
			t.Fatalf("%s changed", k)
		}
	}
}

// A DELETE of 1% of 200k rows in four files writes deletion vectors (in a
// file: they are too large to inline) and no data file.
func TestDeltaDeleteLarge(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "big")
	exec(t, e, "CREATE TABLE big (id BIGINT, v VARCHAR) USING delta")
	for k := 0; k < 4; k++ {
		exec(t, e, fmt.Sprintf("INSERT INTO big SELECT range + %d, 'v' || range FROM range(50000)", k*50000))
	}
	before := dataFiles(t, root)
	if r := exec(t, e, "DELETE FROM big WHERE id % 100 = 7"); r.RowsAffected != 2000 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	if after := dataFiles(t, root); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatal("a data file changed")
	}
	bins, _ := filepath.Glob(filepath.Join(root, "deletion_vector_*.bin"))
	if len(bins) != 1 {
		t.Fatalf("deletion vector files %v", bins)
	}
	expectRows(t, e, "SELECT COUNT(*), SUM(id) FROM big", fmt.Sprintf("[[198000 %d]]", int64(199999*200000/2)-sumMod(200000, 100, 7)))
	expectRows(t, e, "SELECT COUNT(*) FROM big WHERE id % 100 = 7", "[[0]]")
	expectRows(t, e, "SELECT COUNT(*) FROM `big@v4` WHERE id % 100 = 7", "[[2000]]")
	// Statistics skip files: only the last file holds ids above 150000;
	// the others keep their vectors.
	dvs := func() map[string]string {
		snap, err := delta.Open(root, -1)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, f := range snap.Files {
			if f.DeletionVector == nil || f.DeletionVector.Cardinality < 500 {
				t.Fatalf("%s: %+v", f.URI, f.DeletionVector)
			}
			out[f.URI] = f.DeletionVector.UniqueID()
		}
		return out
	}
	old := dvs()
	exec(t, e, "DELETE FROM big WHERE id >= 199990")
	changed := 0
	for uri, id := range dvs() {
		if old[uri] != id {
			changed++
		}
	}
	if changed != 1 {
		t.Fatalf("%d deletion vectors changed", changed)
	}
	expectRows(t, e, "SELECT COUNT(*) FROM big", "[[197990]]")
}

func sumMod(n, m, r int64) int64 {
	var s int64
	for i := int64(0); i < n; i++ {
		if i%m == r {
			s += i
		}
	}
	return s
}

// Checkpoints at versions 10 and 20 (the default interval); the table
// reads the same, at every version, with them and without them.
func TestDeltaWriteCheckpoints(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "cp")
	exec(t, e, "CREATE TABLE cp (id BIGINT, s VARCHAR) USING delta")
	for v := 1; v <= 24; v++ {
		switch {
		case v%6 == 0:
			exec(t, e, fmt.Sprintf("DELETE FROM cp WHERE id %% 7 = %d", v/6))
		case v%5 == 0:
			exec(t, e, fmt.Sprintf("UPDATE cp SET s = s || '+' WHERE id %% 5 = %d", v/5))
		default:
			exec(t, e, fmt.Sprintf("INSERT INTO cp SELECT range + %d, 'r' || range FROM range(100)", v*1000))
		}
	}
	log := filepath.Join(root, delta.LogDir)
	for _, v := range []int{10, 20} {
		if _, err := os.Stat(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.parquet", v))); err != nil {
			t.Fatal(err)
		}
	}
	if data, err := os.ReadFile(filepath.Join(log, "_last_checkpoint")); err != nil || !strings.Contains(string(data), `"version":20`) {
		t.Fatalf("_last_checkpoint %s %v", data, err)
	}
	read := func(e *Engine) []string {
		var out []string
		for v := 0; v <= 24; v++ {
			out = append(out, fmt.Sprint(queryAll(t, e, fmt.Sprintf("SELECT COUNT(*), SUM(id), COUNT(DISTINCT s), MIN(s), MAX(s), SUM(LENGTH(s)) FROM `cp@v%d`", v))))
		}
		return out
	}
	with := read(e)
	for _, v := range []int{10, 20} {
		if err := os.Remove(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.parquet", v))); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(log, "_last_checkpoint"))
	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	without := read(e2)
	if fmt.Sprint(with) != fmt.Sprint(without) {
		t.Fatalf("with checkpoints:\n%v\nwithout:\n%v", with, without)
	}
	if with[24] == with[23] || with[23] == with[22] {
		t.Fatalf("versions read the same: %v", with[21:])
	}
}
