//go:build duckdb

package sqltest

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/driver"
	_ "github.com/duckdb/duckdb-go/v2"
)

// TestMergeCountsDuckDB runs MERGE statements on carquet and on DuckDB
// and compares what the test files cannot: the rows affected each
// reports, and the table after each.
func TestMergeCountsDuckDB(t *testing.T) {
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	duck.SetMaxOpenConns(1)
	carq, err := driver.OpenDB(driver.Config{Path: t.TempDir(), Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer carq.Close()
	setup := []string{
		"CREATE TABLE t (id INTEGER, v VARCHAR, n INTEGER)",
		"INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'd', 40)",
	}
	merges := []string{
		"MERGE INTO t USING (VALUES (1, 'x'), (5, 'y')) AS s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 0)",
		"MERGE INTO t USING (VALUES (1, 'm'), (1, 'n')) AS s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v",
		"MERGE INTO t USING (VALUES (1, 'm'), (1, 'n')) AS s(id, v) ON t.id = s.id WHEN MATCHED THEN DO NOTHING",
		"MERGE INTO t USING (VALUES (2, 'm'), (2, 'n'), (6, 'o'), (6, 'p')) AS s(id, v) ON t.id = s.id WHEN MATCHED AND s.v = 'm' THEN UPDATE SET n = 0 WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)",
		"MERGE INTO t USING (VALUES (3)) AS s(id) ON t.id = s.id WHEN NOT MATCHED BY SOURCE AND t.id > 5 THEN DELETE WHEN NOT MATCHED BY SOURCE THEN UPDATE SET n = n + 1",
		"MERGE INTO t USING (VALUES (0)) AS s(x) ON t.id > s.x WHEN MATCHED AND t.id < 4 THEN UPDATE SET n = -1",
		"MERGE INTO t USING (SELECT 4 AS id, 'D' AS v, 44 AS n UNION ALL SELECT 7, 'G', 77) AS s USING (id) WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
		"MERGE INTO t USING (VALUES (9)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE",
		"MERGE INTO t USING (VALUES (1), (1), (1)) AS s(id) ON t.id = s.id WHEN MATCHED THEN DELETE",
	}
	rowsOf := func(db *sql.DB) string {
		rows, err := db.Query("SELECT id, v, n FROM t ORDER BY id, v, n")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var id sql.NullInt64
			var v sql.NullString
			var n sql.NullInt64
			if err := rows.Scan(&id, &v, &n); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "(%v %v %v)", id, v, n)
		}
		return b.String()
	}
	for _, q := range setup {
		for _, db := range []*sql.DB{duck, carq} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	for _, q := range merges {
		var counts [2]int64
		for i, db := range []*sql.DB{duck, carq} {
			r, err := db.Exec(q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			counts[i], _ = r.RowsAffected()
		}
		if counts[0] != counts[1] {
			t.Errorf("%s: %d rows affected, DuckDB %d", q, counts[1], counts[0])
		}
		if d, c := rowsOf(duck), rowsOf(carq); d != c {
			t.Errorf("%s:\ncarquet %s\nDuckDB  %s", q, c, d)
		}
	}
}
