package driver

import "testing"

// TestPreparedOverView: a database/sql statement prepared over a view
// reads the view as it is when it runs (DuckDB rebinds on a catalog
// change), and runs again the same when nothing changed.
func TestPreparedOverView(t *testing.T) {
	db, err := OpenDB(Config{Path: t.TempDir(), Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE t AS SELECT * FROM range(10) r(i)", "CREATE VIEW v AS SELECT i FROM t WHERE i < 3"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	st, err := db.Prepare("SELECT count(*), max(i) FROM v WHERE i >= ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check := func(arg, wantN, wantMax int64) {
		t.Helper()
		var n, mx int64
		if err := st.QueryRow(arg).Scan(&n, &mx); err != nil || n != wantN || mx != wantMax {
			t.Fatalf("?=%d: count %d, max %d, %v; want %d, %d", arg, n, mx, err, wantN, wantMax)
		}
	}
	check(0, 3, 2)
	check(0, 3, 2) // again, nothing changed
	check(1, 2, 2)
	if _, err := db.Exec("CREATE OR REPLACE VIEW v AS SELECT i FROM t WHERE i >= 5"); err != nil {
		t.Fatal(err)
	}
	check(0, 5, 9)
	check(0, 5, 9)
	check(8, 2, 9)
	if _, err := db.Exec("DROP VIEW v"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Query(int64(0)); err == nil {
		t.Fatal("the statement over a dropped view ran")
	}
	if _, err := db.Exec("CREATE VIEW v AS SELECT i * 2 AS i FROM t"); err != nil {
		t.Fatal(err)
	}
	check(0, 10, 18)
}

// TestViewNamedLikeAColumn: a view or CTE whose name is also a column's
// stays a column inside a subquery's SELECT list in a FROM list, and a
// table after the comma that follows the subquery; a CTE hides a view of
// its name.
func TestViewNamedLikeAColumn(t *testing.T) {
	db, _ := openTest(t, "")
	for _, q := range []string{
		"CREATE TABLE kv (k VARCHAR, v INTEGER)",
		"INSERT INTO kv VALUES ('a', 1), ('b', 2)",
		"CREATE VIEW v AS SELECT k, v * 2 AS v2 FROM kv",
		"CREATE VIEW w AS SELECT k, v FROM kv",
	} {
		mustExec(t, db, q)
	}
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT sum(v2) FROM v", 6},
		{"SELECT sum(v) FROM w", 3},
		{"SELECT sum(v.v2) FROM (SELECT k, v FROM kv) a, v WHERE a.k = v.k", 6},
		{"WITH c AS (SELECT 5 AS z) SELECT sum(z + c) FROM (SELECT 1 AS c) x, c", 6},
		{"WITH v AS (SELECT 7 AS z) SELECT sum(z) FROM (SELECT v FROM kv) x, v", 14},
		{"WITH v AS (SELECT 7 AS z) SELECT z FROM v", 7}, // the CTE hides the view
	} {
		var got int64
		if err := db.QueryRow(c.q).Scan(&got); err != nil || got != c.want {
			t.Errorf("%s: %d, %v; want %d", c.q, got, err, c.want)
		}
	}
}
