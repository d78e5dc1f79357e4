package sqlplan

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// explainText runs an EXPLAIN statement (in tx when not nil) and returns
// its plan, one line per row.
func explainText(t *testing.T, e *Engine, q string, tx *Tx, args ...Arg) string {
	t.Helper()
	s, err := e.PrepareTx(context.Background(), q, tx)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return explainOf(t, s, q, tx, args...)
}

// explainOf runs the prepared EXPLAIN s.
func explainOf(t *testing.T, s *Stmt, q string, tx *Tx, args ...Arg) string {
	t.Helper()
	rows, err := s.QueryTx(context.Background(), args, tx)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var lines []string
	for {
		b, err := rows.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for i := 0; i < b.N; i++ {
			lines = append(lines, b.Cols[0].Get(i).(string))
		}
	}
	return strings.Join(lines, "\n")
}

// fileHashes is every file under the engine's root and its temporary
// folder, with the hash of its bytes.
func fileHashes(t *testing.T, e *Engine) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	dirs := []string{e.root}
	if e.temp != "" {
		dirs = append(dirs, e.temp)
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = sha256.Sum256(b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// wantLines checks that the plan has each of the lines (trimmed of their
// indentation) in order.
func wantLines(t *testing.T, q, pl string, want ...string) {
	t.Helper()
	lines := strings.Split(pl, "\n")
	i := 0
	for _, w := range want {
		for i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), w) {
			i++
		}
		if i == len(lines) {
			t.Errorf("%s: no line %q (in order) in\n%s", q, w, pl)
			return
		}
		i++
	}
}

// dmlTables makes a table of each kind: a file t with keys and checks, a
// plain file s, a folder f, a hive table h, a Delta table d and a temp
// table tt (f and h have an empty file of their CREATE).
func dmlTables(t *testing.T) *Engine {
	e, _ := deltaEngine(t)
	for _, q := range []string{
		"CREATE TABLE t (a INTEGER PRIMARY KEY, b VARCHAR NOT NULL CHECK (b <> 'q'))",
		"INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')",
		"CREATE TABLE s (a INTEGER, b VARCHAR)",
		"INSERT INTO s VALUES (2, 'w'), (4, 'v')",
		"CREATE TABLE 'f/a.parquet' (id BIGINT, v VARCHAR)",
		"INSERT INTO f SELECT range, 'v' || range FROM range(0, 10)",
		"INSERT INTO f SELECT range, 'v' || range FROM range(10, 20)",
		"CREATE TABLE d (id BIGINT, s VARCHAR) USING delta",
		"INSERT INTO d VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"CREATE TEMP TABLE tt (k INTEGER, v VARCHAR)",
		"INSERT INTO tt VALUES (1, 'one'), (2, 'two')",
	} {
		exec(t, e, q)
	}
	hiveTable(t, e)
	return e
}

// TestExplainWritePlans: EXPLAIN of every DML form names the table, its
// kind, what the write does and checks, over the plan of the rows it
// reads as the SELECT path plans them; and it writes nothing.
func TestExplainWritePlans(t *testing.T) {
	e := dmlTables(t)
	before := fileHashes(t, e)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"EXPLAIN INSERT INTO t VALUES (5, 'u'), (6, 'v')", []string{
			"INSERT INTO t [file t.parquet] checks: NOT NULL (a, b), PRIMARY KEY (a), CHECK (b <> 'q')",
			"VALUES 2 rows"}},
		{"EXPLAIN INSERT INTO t (a, b) SELECT a + 10, b FROM s WHERE a > 2 ON CONFLICT DO NOTHING RETURNING a", []string{
			"INSERT INTO t [file t.parquet] columns: a, b ON CONFLICT DO NOTHING returning: a checks:",
			"PROJECT a + 10, b",
			"SCAN s [s.parquet] columns: a, b",
			"pushed filter: a > 2"}},
		{"EXPLAIN INSERT OR REPLACE INTO t VALUES (1, 'r')", []string{"INSERT INTO t [file t.parquet] OR REPLACE checks:", "VALUES 1 row"}},
		{"EXPLAIN INSERT INTO t VALUES (1, 'r') ON CONFLICT (a) DO UPDATE SET b = excluded.b", []string{"INSERT INTO t [file t.parquet] ON CONFLICT DO UPDATE SET b checks:"}},
		{"EXPLAIN INSERT OR IGNORE INTO t VALUES (1, 'r')", []string{"INSERT INTO t [file t.parquet] ON CONFLICT DO NOTHING checks:", "VALUES 1 row"}},
		{"EXPLAIN INSERT INTO s BY NAME SELECT 'k' AS b, 5 AS a", []string{"INSERT INTO s [file s.parquet] BY NAME", "PROJECT 'k', 5", "ONE ROW"}},
		{"EXPLAIN INSERT INTO f VALUES (30, 'x')", []string{"INSERT INTO f [folder f]", "VALUES 1 row"}},
		{"EXPLAIN INSERT INTO h VALUES (7, 'g', 'eu', 2024)", []string{"INSERT INTO h [hive h]", "VALUES 1 row"}},
		{"EXPLAIN INSERT INTO s DEFAULT VALUES", []string{"INSERT INTO s [file s.parquet]", "DEFAULT VALUES 1 row"}},
		{"EXPLAIN UPDATE s SET b = 'z' WHERE a = 2", []string{
			"UPDATE s [file s.parquet] set: b = 'z' where: a = 2",
			"rewrites the file; row groups the WHERE cannot match are copied as stored",
			"reads only what may match: a = 2",
			"PROJECT a, b, 'z'",
			"SCAN s [s.parquet] columns: a, b"}},
		{"EXPLAIN UPDATE t SET b = 'n' WHERE a = 1", []string{
			"UPDATE t [file t.parquet] set: b = 'n' where: a = 1 checks: NOT NULL (a, b), PRIMARY KEY (a), CHECK (b <> 'q')",
			"rewrites the file whole; its keys are checked over its new contents",
			"PROJECT a, b, 'n'"}},
		{"EXPLAIN DELETE FROM s WHERE a IN (SELECT a FROM t WHERE b = 'y')", []string{
			"DELETE FROM s [file s.parquet] where: a in (select a from t where b = 'y')",
			"reads only what may match: a IN (2)",
			"SCAN s [s.parquet] columns: a, b"}},
		{"EXPLAIN DELETE FROM f WHERE id >= 15", []string{
			"DELETE FROM f [folder f]",
			"rewrites the files whose row groups the WHERE may match; the others are kept",
			"reads only what may match: id >= 15",
			"SCAN f [f] columns: id, v"}},
		{"EXPLAIN UPDATE h SET v = 'x' WHERE region = 'eu'", []string{
			"UPDATE h [hive h] set: v = 'x' where: region = 'eu'",
			"rewrites the files whose row groups the WHERE may match",
			"reads only what may match: region = 'eu'",
			"SCAN h [h]"}},
		{"EXPLAIN DELETE FROM d WHERE id = 2", []string{
			"DELETE FROM d [Delta d] where: id = 2",
			"deletion vectors mark the rows matched; no data file is rewritten",
			"reads only what may match: id = 2",
			"SCAN d [d]"}},
		{"EXPLAIN UPDATE d SET s = 'q' WHERE id = 2", []string{"UPDATE d [Delta d] set: s = 'q'", "deletion vectors mark the rows matched; their new versions go to a new data file"}},
		{"EXPLAIN INSERT INTO d VALUES (9, 'n')", []string{"INSERT INTO d [Delta d]", "VALUES 1 row"}},
		{"EXPLAIN UPDATE tt SET v = 'uno' WHERE k = 1 RETURNING k, v", []string{"UPDATE tt [temp] set: v = 'uno' where: k = 1 returning: k, v", "PROJECT k, v, 'uno'"}},
		{"EXPLAIN INSERT INTO tt VALUES (3, 'three')", []string{"INSERT INTO tt [temp]", "VALUES 1 row"}},
		{"EXPLAIN MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)", []string{
			"MERGE INTO t [file t.parquet] WHEN MATCHED THEN UPDATE SET b, WHEN NOT MATCHED THEN INSERT checks:",
			"rewrites the file whole",
			"MERGE JOIN on: t.a = s.a",
			"SCAN t [t.parquet]",
			"SCAN s [s.parquet]"}},
		{"EXPLAIN MERGE INTO s USING (SELECT 7 AS a, 'n' AS b) AS src USING (a) WHEN NOT MATCHED THEN INSERT *", []string{
			"MERGE INTO s [file s.parquet] WHEN NOT MATCHED THEN INSERT",
			"appends the rows inserted",
			"MERGE JOIN using: a"}},
		{"EXPLAIN MERGE INTO d USING s ON d.id = s.a WHEN MATCHED AND s.b = 'w' THEN DELETE", []string{
			"MERGE INTO d [Delta d] WHEN MATCHED AND s.b = 'w' THEN DELETE",
			"MERGE JOIN on: d.id = s.a"}},
	} {
		pl := explainText(t, e, c.q, nil)
		wantLines(t, c.q, pl, c.want...)
		if strings.Contains(pl, "rows affected") || strings.Contains(pl, "[rows") {
			t.Errorf("%s: EXPLAIN without ANALYZE shows figures:\n%s", c.q, pl)
		}
	}
	after := fileHashes(t, e)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("EXPLAIN changed the files:\nbefore %v\nafter  %v", before, after)
	}

	// In a transaction EXPLAIN stages nothing: no copy of a Delta table,
	// no file, and its COMMIT writes nothing.
	tx := e.Begin(false)
	for _, q := range []string{
		"EXPLAIN DELETE FROM d WHERE id = 2",
		"EXPLAIN MERGE INTO d USING s ON d.id = s.a WHEN MATCHED THEN DELETE",
		"EXPLAIN INSERT INTO d VALUES (9, 'n')",
		"EXPLAIN UPDATE f SET v = 'x'",
		"EXPLAIN INSERT INTO s VALUES (9, 'n')",
	} {
		pl := explainText(t, e, q, tx)
		if !strings.Contains(pl, "[Delta d]") && !strings.Contains(pl, "[folder f]") && !strings.Contains(pl, "[file s.parquet]") {
			t.Errorf("%s in a transaction:\n%s", q, pl)
		}
	}
	if got := fileHashes(t, e); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("EXPLAIN in a transaction changed the files:\nbefore %v\nafter  %v", before, got)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := fileHashes(t, e); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("COMMIT after EXPLAIN changed the files:\nbefore %v\nafter  %v", before, got)
	}
}

// TestExplainWriteLogical: the write's logical node is over the rows'
// optimized tree (the query's own for INSERT ... SELECT, the target's
// scan with the WHERE for UPDATE, MERGE's join of target and source).
func TestExplainWriteLogical(t *testing.T) {
	e := dmlTables(t)
	for _, c := range []struct{ q, want string }{
		{"INSERT INTO s SELECT a, b FROM t WHERE a > 1", "INSERT INTO s [file s.parquet]\n  PROJECT a, b\n    FILTER WHERE: (nothing left)\n      SCAN t columns: a, b pushed: a > 1\n"},
		{"INSERT INTO s VALUES (1, 'x')", "INSERT INTO s [file s.parquet]\n  VALUES 1 row\n"},
		{"MERGE INTO s USING t ON s.a = t.a WHEN MATCHED THEN DELETE", "MERGE INTO s [file s.parquet] WHEN MATCHED THEN DELETE\n  MERGE JOIN on: s.a = t.a\n"},
	} {
		s, err := e.Prepare(c.q)
		if err != nil {
			t.Fatal(err)
		}
		p := &plan.Planner{Cat: &stmtCatalog{e: e}, Src: s.Src, Ctx: context.Background(), Set: e.settingsFor(nil)}
		sh, err := s.writePlan(p, true)
		p.ReleaseAll()
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		got := plan.ExplainLogical(sh.w)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: logical plan\n%s\nwant it to start with\n%s", c.q, got, c.want)
		}
	}
}

// TestExplainAnalyzeWrites: EXPLAIN ANALYZE runs the write, shows the
// rows affected, the reads' operators with their figures and the scans'
// pruning, and obeys the transaction it runs in.
func TestExplainAnalyzeWrites(t *testing.T) {
	e := dmlTables(t)
	for _, c := range []struct {
		q        string
		affected int
		want     []string
		check    string // a query and its result after the write
		result   string
	}{
		{"EXPLAIN ANALYZE UPDATE s SET b = 'z' WHERE a = 2", 1, []string{"UPDATE s [file s.parquet] set: b = 'z' where: a = 2", "reads only what may match: a = 2", "row groups 1 (read 1, kept as stored 0)", "PROJECT a, b, 'z'", "SCAN s", "files 1 (pruned 0)"},
			"SELECT b FROM s WHERE a = 2", "[[z]]"},
		{"EXPLAIN ANALYZE DELETE FROM f WHERE id >= 15", 5, []string{"DELETE FROM f [folder f]", "reads only what may match: id >= 15", "files 3 (rewritten 1, kept 2), row groups 2 (read 1, kept as stored 1)", "SCAN f"},
			"SELECT count(*) FROM f", "[[15]]"},
		{"EXPLAIN ANALYZE INSERT INTO t SELECT a + 10, b FROM s", 2, []string{"INSERT INTO t [file t.parquet]", "PROJECT a + 10, b", "SCAN s", "KEY CHECK reads t", "SCAN t"},
			"SELECT count(*) FROM t", "[[5]]"},
		{"EXPLAIN ANALYZE DELETE FROM d WHERE id = 2", 1, []string{"DELETE FROM d [Delta d]", "SCAN"},
			"SELECT list(id ORDER BY id) FROM d", "[[[1 3]]]"},
		{"EXPLAIN ANALYZE UPDATE h SET v = 'x' WHERE region = 'eu'", 3, []string{"UPDATE h [hive h]", "files 5 (rewritten 2, kept 3), row groups 4 (read 2, kept as stored 2)"},
			"SELECT count(*) FROM h WHERE v = 'x'", "[[3]]"},
		{"EXPLAIN ANALYZE MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = 'm' WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)", 2, []string{"MERGE INTO t [file t.parquet]", "MERGE JOIN on: t.a = s.a", "SCAN s", "SCAN t"},
			"SELECT list(b ORDER BY a) FROM t WHERE a IN (2, 4)", "[[[m v]]]"},
		{"EXPLAIN ANALYZE INSERT INTO tt VALUES (3, 'three')", 1, []string{"INSERT INTO tt [temp]", "VALUES 1 row"},
			"SELECT count(*) FROM tt", "[[3]]"},
	} {
		pl := explainText(t, e, c.q, nil)
		wantLines(t, c.q, pl, c.want...)
		if !strings.Contains(pl, fmt.Sprintf("rows affected: %d", c.affected)) || !strings.Contains(strings.SplitN(pl, "\n", 2)[0], fmt.Sprintf("[rows %d, time ", c.affected)) {
			t.Errorf("%s: want %d rows affected in\n%s", c.q, c.affected, pl)
		}
		if got := fmt.Sprint(queryAll(t, e, c.check)); got != c.result {
			t.Errorf("%s: after it %s gives %s, want %s", c.q, c.check, got, c.result)
		}
	}

	// In a transaction: the write is the transaction's, ROLLBACK undoes it.
	tx := e.Begin(false)
	pl := explainText(t, e, "EXPLAIN ANALYZE DELETE FROM s WHERE a = 4", tx)
	wantLines(t, "in a transaction", pl, "DELETE FROM s", "rows affected: 1")
	// A Delta table the transaction wrote is shown by its own place, not
	// its staged copy's.
	pl = explainText(t, e, "EXPLAIN ANALYZE DELETE FROM d WHERE id = 3", tx)
	wantLines(t, "Delta in a transaction", pl, "DELETE FROM d [Delta d]", "rows affected: 1")
	pl = explainText(t, e, "EXPLAIN DELETE FROM d WHERE id = 1", tx)
	wantLines(t, "Delta in a transaction", pl, "DELETE FROM d [Delta d]")
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(queryAll(t, e, "SELECT count(*) FROM s WHERE a = 4")); got != "[[1]]" {
		t.Errorf("after ROLLBACK the row is %s, want [[1]]", got)
	}
	if got := fmt.Sprint(queryAll(t, e, "SELECT list(id ORDER BY id) FROM d")); got != "[[[1 3]]]" {
		t.Errorf("after ROLLBACK d holds %s, want [[[1 3]]]", got)
	}
	// Errors of the write are the statement's.
	if _, err := queryRows(t, e, "EXPLAIN ANALYZE INSERT INTO t VALUES (1, 'dup')"); err == nil || !strings.Contains(err.Error(), "PRIMARY KEY") && !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("EXPLAIN ANALYZE of a duplicate key: %v", err)
	}
}

// TestExplainWritePrepared: a prepared EXPLAIN of a write gives the same
// text each time, with its parameters bound to each run's arguments.
func TestExplainWritePrepared(t *testing.T) {
	e := dmlTables(t)
	before := fileHashes(t, e)
	for _, q := range []string{
		"EXPLAIN UPDATE s SET b = ? WHERE a = ?",
		"EXPLAIN DELETE FROM s WHERE a = $2 OR b = $1",
		"EXPLAIN INSERT INTO s SELECT a, ? FROM t WHERE a > ?",
		"EXPLAIN MERGE INTO s USING (SELECT ? AS b, ? AS a) AS src USING (a) WHEN MATCHED THEN UPDATE SET b = src.b",
	} {
		s, err := e.Prepare(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		args := []Arg{{Ordinal: 1, Value: "k"}, {Ordinal: 2, Value: int64(2)}}
		first := explainOf(t, s, q, nil, args...)
		second := explainOf(t, s, q, nil, args...)
		if first != second {
			t.Errorf("%s: the second EXPLAIN differs:\n%s\n---\n%s", q, first, second)
		}
	}
	s, err := e.Prepare("EXPLAIN UPDATE s SET b = ? WHERE a = ?")
	if err != nil {
		t.Fatal(err)
	}
	pl := explainOf(t, s, "", nil, Arg{Ordinal: 1, Value: "k"}, Arg{Ordinal: 2, Value: int64(2)})
	wantLines(t, "parameters", pl, "UPDATE s", "reads only what may match: a = 2")
	if after := fileHashes(t, e); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("EXPLAIN with parameters changed the files")
	}
}
