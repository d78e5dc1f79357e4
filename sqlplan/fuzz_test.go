package sqlplan

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzQuery runs arbitrary SQL against a small table: every input gives
// rows or an error, never a panic ("internal error") or a hang. Queries
// are executed and up to 1000 batches read, INSERTs executed in a
// transaction that is rolled back; each has a deadline, and one
// that ignores it for long is reported as a hang.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM t", "SELECT a, sum(b) FROM t GROUP BY a HAVING count(*) > 1 ORDER BY 2 DESC LIMIT 3",
		"SELECT a::INTEGER, DATE '2024-01-01' + 1, b || 'x' FROM t WHERE a IN (1, 2) AND b LIKE 'x%'",
		"WITH x AS (SELECT a FROM t) SELECT * FROM x JOIN t ON x.a = t.a",
		"SELECT (SELECT max(a) FROM t), CASE WHEN a > 1 THEN 'y' END FROM t UNION ALL SELECT 1, 'z'",
		"SELECT extract(year FROM TIMESTAMP '2024-01-01 00:00:00'), substring(b, 2, 3), $1",
		"INSERT INTO t VALUES (1, 'x')", "CREATE TABLE u (a INTEGER[], b STRUCT(x INT))", "DESCRIBE t", "EXPLAIN SELECT 1",
		"SELECT 'unterminated", "SELECT ((((1))))", "SELECT a FROM t WHERE a IS DISTINCT FROM 2",
		"SELECT a, rank() OVER (PARTITION BY b ORDER BY a DESC), lag(a) OVER (ORDER BY a) FROM t",
		"SELECT b, count(*) FILTER (WHERE a > 1) FROM t GROUP BY ALL ORDER BY ALL",
		"SELECT * EXCLUDE (b) FROM t INTERSECT SELECT 1 EXCEPT ALL SELECT 2 ORDER BY 1 LIMIT 1",
		"SELECT * EXCLUDE (a) REPLACE (b || 'x' AS b, cast(a AS int) AS a) FROM t",
		"SELECT t.* REPLACE (a AS) FROM t",
		"SELECT b GLOB '[!a-c]*?', b NOT SIMILAR TO 'x|y' FROM t WHERE b GLOB (b) OR glob",
		"SELECT x.a, z.b FROM t x JOIN t y ON x.a = y.a RIGHT JOIN t z USING (b) LEFT JOIN t w ON w.a = z.a RIGHT JOIN t v ON true",
		"SELECT [a, 2][:1], b[2:], b[:a], [[a]][1][1:1], u.x FROM t, unnest([a, 3]) u(x) JOIN range(2) r(i) ON r.i = u.x WHERE b GLOB 'x' OR b ILIKE 'y'",
		"SELECT sum(a) OVER (PARTITION BY b ORDER BY a DESC RANGE BETWEEN 2.5 PRECEDING AND (1 + 1) FOLLOWING), count(*) OVER (ORDER BY DATE '2024-01-01' + a::INT RANGE INTERVAL 3 DAY PRECEDING) FROM t",
		"CREATE VIEW vv (x, y) AS SELECT a, b FROM t", "SELECT x, CAST(CAST(y AS INTEGER) AS VARCHAR) || 'z', substring(y FROM 1 FOR 2) FROM vv",
		"SELECT skewness(a), kurtosis(a::DOUBLE), product(a), geomean(a), entropy(b), last(b ORDER BY a), fsum(a), (a * 1.5) % 2 FROM t GROUP BY a % 3",
		"SELECT range(a), generate_series(DATE '2024-01-01', DATE '2024-02-01', INTERVAL 1 WEEK), g.x FROM t, generate_series(a, 3) g(x), range(-a, a::INT, 2)",
		"SELECT time_bucket(INTERVAL 3 MONTH, DATE '2024-01-01' + a::INT, INTERVAL 1 DAY), time_bucket(INTERVAL '90 minutes', TIMESTAMP '2024-01-01' - INTERVAL (a) HOUR, DATE '1999-12-31') FROM t",
		"SELECT list_transform([a, 2], x -> x * 2), list_filter([b], lambda s: s LIKE 'a%'), list_reduce([a, a], (p, q) -> p + q), apply([[a]], l -> len(l)) FROM t WHERE len(filter([a], x -> x > 0)) > 0",
		"SELECT COLUMNS('a|b'), min(COLUMNS(*)) , COLUMNS(c -> c = 'a') + 1 FROM t GROUP BY a, b",
		"SELECT * FROM t x, t y FULL JOIN t z ON y.a = z.a, t w WHERE x.a = y.a AND w.b = x.b AND x.a < z.a",
		"SELECT a * 2 AS d, d + 1 AS e, e || b, (SELECT d) FROM t WHERE e > 1 AND d IN (SELECT a FROM t)",
		"SELECT TIMESTAMP '2024-01-01' AT TIME ZONE 'UTC' AT TIME ZONE b, quantile_cont(a, [0.5, 1]), try_strptime(b, '%Y') FROM t GROUP BY b",
		"UPDATE t SET a = a + 1, b = b || 'x' WHERE b LIKE 'x%'", "DELETE FROM t x WHERE x.a IN (SELECT a FROM t)",
		"SELECT c.*, t.table_type FROM information_schema.columns c JOIN information_schema.tables t USING (table_name) WHERE c.ordinal_position > 1",
		"SELECT x, extract(year FROM DATE '2024-01-01'), 'a' FROM range(2) r(x), t, 'b.parquet', unnest([1]) u(y) WHERE x IN (1, 2)",
		"SHOW t", "SHOW x", "SHOW 'f.parquet'",
		"SELECT * FROM t TABLESAMPLE 10% JOIN t u ON t.a = u.a USING SAMPLE reservoir(3 ROWS)", "SELECT a FROM t x WHERE a > 1 USING SAMPLE bernoulli(50 PERCENT)",
		"FROM t SELECT a, left(b, 1) WHERE a > 1 ORDER BY 1", "FROM (FROM t) x WHERE a IN (FROM t SELECT a)",
		"PIVOT t ON b USING sum(a) AS s, count(*) GROUP BY a % 2 ORDER BY 1 LIMIT 3", "PIVOT (SELECT a, b FROM t) ON a IN (1, 2)",
		"UNPIVOT (SELECT a, a * 2 AS b2 FROM t) ON a, b2 INTO NAME n VALUE v ORDER BY n",
		"SELECT b ->> '$.x', b -> 'y' -> 0, json_extract(b, '/a/1'), json_type(b), json_valid(b) FROM t WHERE b ->> 'k' = 'v'",
		"SELECT list_has_any([a], [1]), list_intersect([b], ['x']), list_unique([a, a]), list_any_value([b]), millennium(DATE '2024-01-01' + a::INT), era(TIMESTAMP '2024-01-01') FROM t",
		"SELECT regexp_extract_all(b, '(a)(b)?', a % 3), regexp_split_to_array(b, '[, ]'), sha1(b), to_days(a) + DATE '2024-01-01', to_microseconds(a) FROM t",
		"SELECT [x + a FOR x IN [1, a] IF x > 0], [[y FOR y IN l] FOR l IN [[b]]], [FOR x IN [1]], [x FOR x IN] FROM t",
		"SELECT list_transform([a], x -> x + a), list_reduce([a, 1], (p, q) -> p * q + a), list_transform([[a]], l -> list_filter(l, y -> y > len(l) + a)) FROM t GROUP BY a",
		"SELECT b ~ 'a.*', b !~ '[', b ^@ 'x', ~a, !a, a ~, ^@ b FROM t WHERE b ~ b",
		"SELECT * FROM (PIVOT t ON b USING count(*)) x, (UNPIVOT (SELECT a, a + 1 AS c FROM t) ON a, c) y WHERE (PIVOT t ON a) IS NULL",
		"SELECT 8 | a & 3 << 1, ~a, a | -(b || '1')::INT, 'x' || b | 1 FROM t WHERE a | 1 = 3",
		"SELECT CAST('[1, [2]]' AS INTEGER[][]), TRY_CAST([b] AS DATE[]), [a]::DOUBLE[][] FROM t",
		"SELECT a FROM t x WHERE NOT EXISTS (SELECT 1 FROM t y WHERE y.a = x.a AND y.b > 'a')",
		"SELECT a, sum(a) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND UNBOUNDED FOLLOWING) FROM t QUALIFY a > 1",
		"SELECT b, count(*) c FROM t GROUP BY b HAVING c > 0 QUALIFY rank() OVER (ORDER BY c) = 1",
		"SELECT TRY_CAST(b AS INTEGER), percentile_cont(0.5) WITHIN GROUP (ORDER BY a), corr(a, a), list(b) FROM t",
		"SELECT DISTINCT ON (b) b, a FROM t ORDER BY b, a DESC LIMIT 2",
		"SELECT r.range, a FROM range(-2, 9, 3) r JOIN generate_series(1, 3) g ON r.range = g.generate_series LEFT JOIN t ON t.a = g.generate_series",
		"SELECT a, (SELECT count(*) FROM t y WHERE y.a < t.a) FROM t WHERE b IN (SELECT b FROM t z WHERE z.a = t.a)",
		"SELECT x.a, y.b FROM t x FULL OUTER JOIN t y ON x.a = y.a ORDER BY 1 NULLS FIRST, 2 DESC NULLS LAST",
		"SELECT b, string_agg(b, ',' ORDER BY a DESC), grouping(b) FROM t GROUP BY ROLLUP (b), CUBE (a)",
		"SELECT a, sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b ORDER BY a) GROUP BY GROUPING SETS ((a), ())",
		"WITH RECURSIVE r(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 4) SELECT * FROM r, (VALUES (1, 'a')) v(x, y)",
		"SELECT printf('%5.2f %s', a, b), format('{:>4}', a), 7 // 2, 2 ** 3, strptime('2024', '%Y'), position('x' IN b) FROM t",
		"SELECT [a, 2][1], len([b]), unnest([a, a + 1]) AS u, {'k': b}['k'], list_contains([1], a) FROM t ORDER BY u",
		"CREATE OR REPLACE VIEW w AS SELECT a, b FROM t NATURAL JOIN t u", "DROP VIEW IF EXISTS w",
		"CREATE OR REPLACE MACRO fm(x, y := 2) AS x * y + (SELECT count(*) FROM t WHERE a > x)", "SELECT fm(a), fm(a, y := 3), fm(fm(1)) FROM t WHERE fm(?) > 0",
		"CREATE OR REPLACE TEMP MACRO ft(n) AS TABLE SELECT * FROM t WHERE a <= n", "SELECT * FROM ft(2) x, ft(n := 1) JOIN ft(3) USING (a)", "DROP MACRO TABLE IF EXISTS ft",
		"SELECT DATE '2024-01-31' + INTERVAL '1 year -2 days 03:04:05.5' + 2 * INTERVAL 1 MONTH, $$x$$ || E'\\t' FROM t OFFSET 1 ROWS FETCH FIRST 1 ROW ONLY",
		"SELECT a FROM t x FULL JOIN t y USING (a, b) WHERE (a, b) IN ((1, 'x')) AND a > ALL (SELECT 0) AND list_sum([a]) > 0",
		"SELECT trim(BOTH 'x' FROM b), substring(b FROM 1 FOR 1) FROM (SELECT b FROM t EXCEPT SELECT 'x' INTERSECT SELECT b FROM t) s WHERE a IN ((SELECT 1 EXCEPT SELECT 2))",
		"SELECT MAP {b: a, 'k': 2}['k'], map([a], [b]), map_extract(MAP {1: b}, a), a = ANY([1, a]), [a] || [2] || NULL, to_json({'x': [b]})::VARCHAR, struct_extract({'q': a}, 'q') FROM t",
		"CREATE TABLE c (k INTEGER PRIMARY KEY, v VARCHAR DEFAULT 'x' CHECK (v <> 'y') UNIQUE, FOREIGN KEY (k) REFERENCES t (a))", "INSERT OR IGNORE INTO c (k) VALUES (1), (1) ON CONFLICT DO NOTHING",
		"SELECT (a)::VARCHAR, avg(INTERVAL 1 HOUR * a), max(to_days(a)) > INTERVAL 1 MONTH, epoch(to_hours(a) / 2), date_part('minute', to_minutes(a) - INTERVAL 1 DAY) FROM t",
		"CREATE TABLE pk1 (k INTEGER PRIMARY KEY, v VARCHAR)", "INSERT OR REPLACE INTO pk1 VALUES (1, 'a'), (2, 'b')", "INSERT OR REPLACE INTO pk1 SELECT a, b FROM t", "INSERT INTO pk1 VALUES (1, 'z') ON CONFLICT (k) DO UPDATE SET v = excluded.v || pk1.v WHERE pk1.k > 0",
		"SELECT a FROM t x SEMI JOIN t y ON x.a = y.a AND y.b <> 'q' WHERE x.a > 0 ORDER BY a", "SELECT count(*) FROM t ANTI JOIN (SELECT 1 AS a) u ON t.a = u.a", "INSERT INTO t BY NAME SELECT 'x' AS b, 9 AS a",
		"SELECT a, b FROM t UNION BY NAME SELECT b AS c, a FROM t UNION ALL BY NAME SELECT DISTINCT 1 AS a ORDER BY 1",
		"CREATE SEQUENCE s1 START 3 INCREMENT BY -1", "SELECT nextval('s1'), currval('s1') FROM t", "INSERT INTO t DEFAULT VALUES", "INSERT INTO t VALUES (DEFAULT, 'x')", "DROP SEQUENCE IF EXISTS s1",
		"ALTER TABLE t ADD COLUMN IF NOT EXISTS z INTEGER DEFAULT 3", "ALTER TABLE t ALTER COLUMN z SET DATA TYPE VARCHAR USING z || 'x'", "ALTER TABLE t RENAME z TO y", "ALTER TABLE t DROP COLUMN IF EXISTS y",
		"UPDATE t SET b = u.b || 'x' FROM (SELECT a, b FROM t) u WHERE u.a = t.a AND u.a > 1", "TRUNCATE TABLE t",
		"SELECT median(a) OVER (PARTITION BY b), count(DISTINCT b) OVER (ORDER BY a ROWS 1 PRECEDING), string_agg(b, ',') OVER (), last(a ORDER BY b DESC), percentile_cont(0.2) WITHIN GROUP (ORDER BY a DESC) OVER () FROM t",
		"SELECT t.a, u.x, v.y FROM t, unnest([t.a, 2]) u(x) LEFT JOIN LATERAL (SELECT u.x + t.a AS y WHERE u.x > 1) v ON true, range(t.a) r",
		"SELECT a::HUGEINT * 170141183460469231731687303715884105727 // a, (a::UHUGEINT - 3) % 0, '0101'::BIT << a, get_bit(a::BIT, a), bit_xor(a::TINYINT::BIT), sum(a::HUGEINT) FROM t GROUP BY a",
		"SELECT b::TIMETZ, TIMETZ '12:00+05' + INTERVAL (a) HOUR, hour(b::TIMETZ), CAST(a AS UHUGEINT)::BIT::HUGEINT, set_bit(bitstring(b, a), 0, 1) FROM t ORDER BY 1",
		// checkLimits' scanner: quotes, comments, CASE ... END and brackets
		"SELECT CASE WHEN (1 END) END, E'\\'(' || $$($$, `(` FROM t -- (", "SELECT [1, (2] + 1) /* ( */ ; SELECT CASE END END)",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		f.Fatal(err)
	}
	setup, _ := e.Prepare("CREATE TABLE t (a BIGINT, b VARCHAR)")
	if _, err := setup.Exec(context.Background(), nil, nil); err != nil {
		f.Fatal(err)
	}
	ins, _ := e.Prepare("INSERT INTO t VALUES (1, 'x'), (2, NULL), (NULL, 'yy')")
	if _, err := ins.Exec(context.Background(), nil, nil); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 2000 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		watchdog := time.AfterFunc(30*time.Second, func() { panic(fmt.Sprintf("FuzzQuery: %q still running 25 s after its deadline", q)) })
		defer watchdog.Stop()
		s, err := e.Prepare(q)
		check := func(err error) {
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%q: %v", q, err)
			}
		}
		check(err)
		if err != nil {
			return
		}
		if !s.Returns() {
			// INSERTs run in a transaction rolled back, so that every input
			// sees the same table; other writes are not run.
			if s.kind == kindInsert {
				tx := e.Begin(false)
				_, err := s.Exec(ctx, []Arg{{Ordinal: 1, Value: int64(1)}}, tx)
				check(err)
				check(tx.Rollback())
			}
			return
		}
		rows, err := s.Query(ctx, []Arg{{Ordinal: 1, Value: int64(1)}})
		check(err)
		if err != nil {
			return
		}
		defer rows.Close()
		for i := 0; i < 1000; i++ {
			if _, err := rows.Next(); err != nil {
				check(err)
				return
			}
		}
	})
}
