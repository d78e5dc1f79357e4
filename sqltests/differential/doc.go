// Package differential tests carquet's SQL engine against DuckDB: random
// tables written by carquet's writer, random statements over them, run on
// both engines through database/sql, results compared after a fixed
// normalisation. Disagreements are minimized and kept as regression cases
// in testdata/regressions.txt.
//
// # Tables (tables.go)
//
// A seed draws three tables in a temporary folder: t1 (300–1500 rows),
// t2 (50–300) and t3 (5–65). Each has id (BIGINT NOT NULL, unique), the
// shared join key k (BIGINT, 10–50 values, some NULL) and, in t1 and t2,
// the shared key g (VARCHAR over a small alphabet); then 1–7 columns of
// random types: BIGINT, INTEGER, DOUBLE, DECIMAL(5,2), (9,0), (10,2),
// (18,4) and (30,6) (INT32, INT64 and FIXED_LEN_BYTE_ARRAY storage),
// VARCHAR, BOOLEAN, DATE, TIMESTAMP and TIMESTAMPTZ (microseconds). Values
// come mostly from small domains, so that equality, LIKE, GROUP BY and
// joins hit, with NULLs at a per-column rate (0 to all), empty strings,
// strings with spaces, '_', '%' and 'é', and edge values: 0, ±1, ±1e12,
// BIGINT's -2^63 and 2^63-1, the largest and smallest decimals of the
// precision, ±Inf and 5e-324, dates and times around 1970-01-01, 1900,
// 2000-02-29 and 2099. Tables are often sorted by one column and written
// with small row groups (50–1000 rows) and pages (7–500 rows), a random
// codec, dictionary on or off, page v1 or v2, page index mostly on and
// bloom filters half the time, so that carquet's pruning by statistics,
// page index and bloom filter takes part in most statements.
//
// Left out of the data, and why:
//   - NaN: DuckDB contradicts itself on NaN in Parquet files (its scalar
//     subquery SELECT max(f) answers 1e10 where SELECT max(f) alone
//     answers NaN, and f = 'NaN' finds no row though f = f holds for the
//     NaN row), so it is no oracle there. carquet sorts and compares NaN
//     as DuckDB documents (greater than everything, equal to itself).
//   - huge finite doubles: DuckDB sums doubles with compensation, so
//     1e300 - 1e300 + x gives x in DuckDB and 0 in a plain sum; doubles are
//     multiples of 1/8 well within 2^53 instead, whose sums are exact in
//     any order.
//   - INTEGER extremes: DuckDB computes INTEGER arithmetic in 32 bits and
//     fails on overflow where carquet widens to BIGINT.
//   - -0.0.
//
// The typed table t4 (tables_types.go, 40–300 rows, drawn from its own
// random stream so that t1–t3 and their statements are unchanged) has
// fixed columns of the other types: TINYINT, SMALLINT, UTINYINT,
// USMALLINT, UINTEGER, UBIGINT (with their extremes), INTEGER, FLOAT,
// two DECIMALs of random precisions up to (28,10) (no p + s > 38: DuckDB
// caps a common decimal type at 38 digits by dropping fractional digits,
// carquet keeps them), VARCHAR with non-ASCII text (é, ß, Σσ, 日本, ǅ),
// DATE, TIMESTAMP, TIMESTAMPTZ, TIMESTAMP_MS, TIMESTAMP_NS, TIME, BLOB,
// UUID, INTERVAL, INTEGER[] and VARCHAR[] with NULL elements,
// STRUCT(a INTEGER, b VARCHAR), MAP(VARCHAR, INTEGER) and a list of the
// struct. HUGEINT appears in expressions only (CAST, SUM).
//
// # Statements (gen.go)
//
// Every statement is drawn from its own random stream (seed, number), so
// one can be drawn again alone. The grammar:
//
//	statement  := [WITH sqN AS (select)] select [setop select]
//	              [ORDER BY positions|aliases [LIMIT n [OFFSET m]]]
//	setop      := UNION [ALL] | INTERSECT [ALL] | EXCEPT [ALL]
//	select     := SELECT [DISTINCT] items FROM from [WHERE pred AND ...]
//	              [GROUP BY keys [HAVING aggpred]]
//	from       := t | t a [LEFT|RIGHT|FULL] JOIN t b ON a.k = b.k [AND a.g = b.g] [AND pred on b]
//	              [[LEFT|RIGHT] JOIN t c ON ...] | t2/t3 a CROSS JOIN t2/t3 b | (select) sqN
//	window     := RANK/DENSE_RANK/ROW_NUMBER/NTILE(3) | COUNT(*)/COUNT(x)/SUM/MIN/MAX/AVG
//	              | LAG(x[, 2])/LEAD/FIRST_VALUE
//	              OVER ([PARTITION BY col] [ORDER BY col [DESC][, id]])
//	pred       := (x op y) | (x IS [NOT] NULL) | (x [NOT] IN (list with NULLs))
//	              | (x [NOT] BETWEEN a|column AND b) | (s [NOT] LIKE pattern [ESCAPE])
//	              | (p AND q) | (p OR q) | (NOT p) | (p IS [NOT] TRUE/FALSE)
//	              | starts_with/contains/ends_with | bool column
//	              | (x [NOT] IN (SELECT col FROM t WHERE ...)) | (x op (SELECT MIN/MAX/COUNT ...))
//	              | ([NOT] EXISTS (SELECT ...))
//	aggregates := COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM([DISTINCT] x),
//	              AVG([DISTINCT] x), MIN, MAX, and + - * over them and over
//	              GROUP BY keys
//
// Every third statement (number i with i % 3 == 2) is instead one of the
// query shapes of gen_shapes.go, drawn from the same stream, so that the
// other statements keep their numbers' streams:
//
//	correlated := SELECT items FROM t o [[LEFT] JOIN t p ON o.k = p.k] [WHERE ...]
//	              with (SELECT agg FROM t x WHERE corr ...) or (SELECT x.c FROM t x
//	              WHERE corr ORDER BY x.c [DESC], x.id LIMIT 1 [OFFSET 1]),
//	              ([NOT] EXISTS (...)), (o.c | NULL [NOT] IN (SELECT x.c ... WHERE corr)),
//	              (o.c op (scalar)) in items, WHERE, CASE, and in HAVING of a GROUP BY o.k;
//	              corr := x.k = o.k (mostly) or x.c op o.c [AND a second one], and
//	              one level deeper a subquery tied by k or g to either level
//	window     := f OVER ([PARTITION BY c] ORDER BY c [DESC], id ROWS frame)
//	              | f OVER ([PARTITION BY c] ORDER BY c [DESC] GROUPS frame)
//	              | f OVER ([PARTITION BY c] ORDER BY id|k|double|date [DESC] RANGE frame)
//	              | OVER w | OVER (w ROWS frame) with WINDOW w AS (...), [QUALIFY ...],
//	              one to three in a select; or SUM(agg)/LAG(agg)/RANK()/COUNT(*)
//	              OVER (ORDER BY the GROUP BY keys) over a GROUP BY
//	frame      := BETWEEN UNBOUNDED PRECEDING|n PRECEDING|CURRENT ROW|n FOLLOWING
//	              AND ...|UNBOUNDED FOLLOWING (start not after end), or a start alone,
//	              [EXCLUDE CURRENT ROW|GROUP|TIES|NO OTHERS]; n an integer, for
//	              RANGE over doubles a fraction, over dates and timestamps an INTERVAL
//	f          := COUNT(*), COUNT(x), SUM/AVG(id, k, doubles, decimals), MIN, MAX,
//	              and under ROWS FIRST_VALUE, LAST_VALUE, NTH_VALUE(x, 2)
//	grouping   := GROUP BY ROLLUP|CUBE|GROUPING SETS (...) of one to three keys,
//	              with GROUPING(keys); SELECT DISTINCT ON (keys) ... ORDER BY keys,
//	              c, id (at the top, or in a derived table with LIMIT);
//	              string_agg(s, sep ORDER BY c, id), CAST(list(x ORDER BY c, id)
//	              AS VARCHAR), arg_min/arg_max(x, id), COUNT(DISTINCT x),
//	              agg FILTER (WHERE pred)
//	joins      := JOIN USING (k [, g]) (SELECT * too), NATURAL [LEFT|FULL] JOIN of
//	              t2/t3 (itself too), SEMI|ANTI JOIN ON keys [AND a.c op b.c]
//	              [AND pred on b], [LEFT JOIN] LATERAL (correlated select, an
//	              aggregate or ORDER BY ... LIMIT n) ON true, three small tables in
//	              any join kinds, joins of two derived tables grouped by k, and
//	              theta joins: a.k < b.k, a.k = b.k AND pred(a) AND pred(b),
//	              (a.k = b.k OR a.id = b.id), a.k = b.k AND a.id < b.id (self-joins)
//	ctes       := WITH w AS (...) read twice (self-join, or FROM and IN); WITH w1,
//	              w2 reading w1, statement reading both; WITH RECURSIVE r(id, n,
//	              lim) counting n up to lim = k % m < 20 (or a constant), by UNION
//	              [ALL], aggregated or joined to t3
//	others     := (SELECT ... ORDER BY c, id LIMIT n [OFFSET m]) as a derived
//	              table or an IN subquery; ORDER BY expressions of the table's
//	              columns before the positions; three selects joined by UNION
//	              [ALL], INTERSECT [ALL], EXCEPT [ALL], two of them in parentheses
//	              (or none)
//
// Comparisons and IN lists pair a type with itself, numbers of different
// types (BIGINT, DOUBLE, DECIMAL) with each other, and dates with
// timestamps.
// Scalar expressions: + - * / % and unary minus, abs, sign, sqrt,
// floor, ceil, round (0 and 1 digits), greatest, least, coalesce,
// nullif, CASE (searched, simple, without ELSE), CAST to BIGINT, DOUBLE,
// DECIMAL(18,3), VARCHAR, DATE, TIMESTAMP; length, lower, upper,
// reverse, trim, ltrim, rtrim, ||, concat, substring (positions 0, -1,
// 1, 2), left, right, replace, lpad, rpad, repeat, split_part, strpos;
// year, month, day, hour, minute, dayofweek, dayofyear, quarter,
// date_diff, date_trunc, last_day, make_date, make_timestamp, + INTERVAL.
// Joins never take t1 twice nor three tables with t1, and CROSS JOIN
// only t2 and t3, so that results stay small (a result over 50,000 rows is
// skipped). Window functions appear in selects over one table, where the
// unique id ends every ORDER BY inside OVER that ties would make depend
// on the engine (ROW_NUMBER, NTILE, LAG, LEAD, FIRST_VALUE); RANK,
// DENSE_RANK and running aggregates (their default frame takes in the
// peers of the row) order by a column alone.
//
// The common subset, where the dialects differ:
//   - every predicate is parenthesized: carquet's MySQL grammar refuses
//     x LIKE 'a%' >= y, and IS, LIKE and comparisons rank differently in
//     the two grammars.
//   - ORDER BY is always total: the chosen keys, then every other
//     position ascending, so ties cannot reorder rows. Both engines sort
//     NULLs last in both directions (checked); NULLS FIRST/LAST is not
//     written, carquet's grammar lacks it. LIMIT and OFFSET only come
//     with ORDER BY.
//   - GROUP BY keys always read a column: DuckDB takes a constant key
//     such as GROUP BY (- 20) as a position.
//   - double literals are CAST(1.5 AS DOUBLE) (a plain 1.5 is a DECIMAL
//     in DuckDB); / is DuckDB's float division in both, // is not used.
//   - a DECIMAL item of a UNION, INTERSECT or EXCEPT is cast to
//     DECIMAL(38,6) in both branches:
//     DuckDB caps the union of two decimals at 38 digits by dropping
//     fractional digits (DECIMAL(37,0) with DECIMAL(22,2) gives
//     DECIMAL(38,1) and 0.25 becomes 0.3), carquet keeps them.
//   - make_date and make_timestamp get CAST(... AS BIGINT) arguments:
//     DuckDB has no overload for its HUGEINT (a SUM of BIGINT).
//
// The shapes avoid, and why: ROWS frames and value functions (FIRST_VALUE,
// string_agg, list, arg_min) order by the id last, since ties would make
// them depend on the engine; a frame whose start passes its end (1
// PRECEDING AND 3 PRECEDING): DuckDB counts such an empty frame negative
// (case duckdb-inverted-frame-count); a subquery nested in a correlated
// one is tied to the keys k and g only, since carquet runs it once per
// distinct combination of the outer values it names, and ids would make
// one statement take minutes; expressions in the select list of a
// subquery with LIMIT and of DISTINCT ON, since carquet computes them on
// the rows these drop (as SQL reads them) and fails on their overflow,
// where DuckDB computes them after (case
// limit-subquery-item-error-on-dropped-row); the big table t1 in
// self-joins, theta joins, three-way joins and recursive CTEs.
//
// Typed statements (gen_types.go), numbered from 1000000 (as many as
// the others; -query takes their numbers too): a select over t4 of typed
// expressions, typeof of some (the result-type rules themselves), an
// unnest(list) item, a window function over the typed columns
// (SUM/AVG/MIN/MAX/COUNT, FIRST_VALUE/LAST_VALUE/NTH_VALUE/LAG/LEAD over
// ROWS frames with EXCLUDE ordered by a typed key and id; aggregates over
// RANGE frames ordered by an integer, decimal, date or timestamp key with
// integer, decimal or INTERVAL offsets; RANK/DENSE_RANK/PERCENT_RANK/
// CUME_DIST ordered by a typed key of any class, lists and structs too),
// two selects of typed items joined by UNION [ALL], INTERSECT [ALL] or
// EXCEPT [ALL] (integers of other widths and signs, decimals with
// integers, dates with timestamps, lists, structs and maps meeting in a
// common type; not INTERVAL, whose equal values of other parts make the
// kept one engine-dependent), or an aggregate grouped by a column of any type
// (MIN, MAX, SUM, AVG, COUNT(DISTINCT), bool_and/or). Expressions:
// arithmetic at each integer width (DuckDB fails on overflow, so must
// carquet), CAST and TRY_CAST between integer widths, decimals, floats
// and text (CAST of constants too: a constant that does not convert
// fails on the rows that evaluate it in both engines), decimal + - * %
// between precisions and with integers, products of three decimals and
// 38-digit operands (results past 18 digits, overflow errors),
// round/floor/ceil/trunc, FLOAT arithmetic, instr, ascii, chr,
// translate, regexp_matches/replace/extract/extract_all/full_match with
// simple patterns, string_split, string_split_regex,
// regexp_split_to_array, lpad/rpad with non-ASCII padding, split_part,
// left/right/repeat, ltrim/rtrim/trim of characters, replace, concat_ws,
// printf, format, starts_with/contains/ends_with,
// lower/upper/LIKE/ILIKE on non-ASCII text, strftime with
// common formats, date_part of every part, epoch, epoch_ms, epoch_us,
// date_sub, EXTRACT, date_add, time_bucket, age, DATE + TIME, interval
// arithmetic and comparison, CAST of every typed class to VARCHAR, list
// functions (len, list_contains, list_sort, list_distinct, list_slice,
// x[i], x[a:b], list_aggregate, list_transform, list_filter, flatten,
// list_concat, array_to_string, list_position), struct_extract,
// map_extract, CASE and COALESCE mixing integer widths, decimals and
// timestamps, and comparisons across types (UBIGINT with BIGINT,
// DECIMAL with FLOAT and DOUBLE, DATE with TIMESTAMP_NS, HUGEINT with
// UBIGINT).
//
// Not generated (yet): window SUMs of BIGINT columns other than id and
// k (they would only repeat SUM's known overflow), window functions
// with ORDER BY inside the aggregate, LATERAL under RIGHT or FULL JOIN, recursive CTEs other
// than counting, MATERIALIZED CTEs, UNION BY NAME, ASOF and POSITIONAL
// joins, PIVOT, casts
// of doubles to VARCHAR (float text is engine-specific; not tried), time
// zones other than UTC (DuckDB runs with TimeZone=UTC).
//
// # Comparison (compare.go)
//
// Values are normalised before they are compared: integers of every
// width (DuckDB's HUGEINT too) and decimals become exact rationals, and
// compare exactly (so decimal scale and trailing zeros do not matter:
// 1.50 = 1.5); DOUBLE and FLOAT compare with a relative tolerance of 1e-9
// (absolute 1e-12 near zero) against any number, NaN equal to NaN,
// infinities by sign; DATE and TIMESTAMP[TZ] become UTC microseconds
// and nanoseconds (a DATE equals the TIMESTAMP of its midnight);
// strings, BLOBs and booleans compare exactly; UUIDs as their text;
// INTERVALs by months, days and microseconds (carquet's driver hands out
// their text, which is parsed); lists element by element, structs field
// by field, maps entry by entry in the order of their keys
// (compare_nested.go); NULL equals only NULL. Types are compared by class,
// not width, except that a DECIMAL result which carquet returns as a
// DOUBLE fails ("decimal computed as float"): digits are lost there even
// when the values agree within the tolerance. Rows compare in order when
// the statement has its (total) ORDER BY, otherwise as multisets (both
// sides sorted by a canonical key).
//
// Outcomes: same; mismatch, decimal computed as float, carquet error
// (DuckDB answered, carquet failed without naming an unsupported
// feature) and overflow missed by carquet (DuckDB failed on an integer
// overflow of any width, or on a cast to an integer type that does not
// hold the value, and carquet returned rows) fail the test; unsupported by carquet
// (an error "... is not supported"), DuckDB error only (DuckDB fails on
// overflows of its narrower INTEGER and DECIMAL(18) arithmetic, or a
// type carquet accepts), both error and too large are counted and logged.
//
// # Reproducing and minimizing
//
//	go test ./differential          # the CI run: seeds 1, 2, 3, 200 statements and as many typed ones each (60 with -short)
//	go test ./differential -run TestDifferential -args -seed 123 -n 500
//	go test ./differential -run TestDifferential -args -seed 123 -n 500 -shapes   # query shapes only
//	go test ./differential -run TestDifferential -v -args -seed 123 -query 42 -keep
//	go test ./differential -run TestDifferential -v -args -seed 123 -query 1000042 -keep   # a typed statement
//	go test ./differential -run TestDifferential -v -args -seed 123 -sql 'SELECT ...'
//
// (-args: go test itself reads -n, as "print the commands".)
//
// A failure prints the seed and statement number, the statement, its
// minimized form, both results, the tables' schemas and writer options
// and the folder of the data files, which is kept when a test fails (or
// with -keep). Minimization (minimize.go, -minimize N statements) is
// greedy and deterministic: it drops UNION branches, ORDER BY, LIMIT,
// select items, WHERE conjuncts, joins, GROUP BY keys, HAVING, DISTINCT,
// and replaces expressions by their arguments, as long as the smaller
// statement fails the same way.
//
// # Regression cases (regressions.go, testdata/regressions.txt)
//
// Each case is a seed (its tables; TablesVersion must match) and a
// statement, replayed by TestRegressions with plain go test. "known"
// marks an open carquet bug: the case is skipped with the bug's text
// while it fails, and fails once it passes so that the mark comes off.
// "differs" marks a difference that is not a carquet bug. A random
// statement of the CI seeds that shows a recorded bug is skipped when it
// is listed in the case's "occurs" line or when it minimizes to the
// case's statement; any other failure fails the test and prints the
// record to add.
package differential
