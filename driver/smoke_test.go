package driver

import (
	"database/sql"
	"fmt"
	"testing"
)

func dump(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Logf("%s\n  ERR %v", q, err)
		return
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	t.Logf("%s\n  cols %v", q, cols)
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		t.Logf("  %s", fmt.Sprint(vals...))
	}
	if err := rows.Err(); err != nil {
		t.Logf("  ROWS ERR %v", err)
	}
}

func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE t1 (id BIGINT NOT NULL, name VARCHAR, score DOUBLE, qty INTEGER, d DATE, ts TIMESTAMP, price DECIMAL(10,2), flag BOOLEAN)",
		"INSERT INTO t1 VALUES (1, 'apple', 1.5, 10, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', 12.34, true), (2, 'banana', NULL, 20, '2024-02-03', '2024-02-03 00:00:00', 0.5, false), (3, NULL, 3.25, NULL, NULL, NULL, NULL, NULL)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	dump(t, db, "SELECT * FROM t1")
	dump(t, db, "SELECT id, name, score * 2 AS s2, qty + 1 FROM t1 WHERE id >= 2 ORDER BY id DESC")
	dump(t, db, "SELECT count(*), sum(qty), avg(score), min(name), max(price) FROM t1")
	dump(t, db, "SELECT flag, count(*) FROM t1 GROUP BY flag ORDER BY 2")
	dump(t, db, "SELECT upper(name), length(name), year(d), d + 1, ts + INTERVAL 1 DAY FROM t1 WHERE name LIKE 'b%'")
	dump(t, db, "EXPLAIN ANALYZE SELECT name FROM t1 WHERE id = 2 AND upper(name) = 'BANANA'")
	dump(t, db, "SELECT * FROM t1 WHERE id = ?", 3)
	dump(t, db, "DESCRIBE t1")
	dump(t, db, "SHOW TABLES")
	dump(t, db, "SELECT nme FROM t1")
	dump(t, db, "SELECT a.id, b.name FROM t1 a JOIN t1 b ON a.id = b.id + 1")
	dump(t, db, "SELECT id FROM t1 UNION ALL SELECT qty FROM t1 ORDER BY 1")
	dump(t, db, "SELECT id FROM t1 WHERE id IN (SELECT id FROM t1 WHERE qty > 10)")
	dump(t, db, "SELECT (SELECT max(id) FROM t1), CAST(price AS DOUBLE), price::varchar, 1/0 FROM t1")
}
