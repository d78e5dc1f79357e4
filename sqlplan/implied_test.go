package sqlplan

import (
	"fmt"
	"strings"
	"testing"
)

// keyFilterFiles makes two tables of ten row groups each, joined on
// keys with NULLs among them: o has one row per key 0..9999, l four per
// key 0..9999.
func keyFilterFiles(t *testing.T) *Engine {
	e := newEngine(t)
	exec(t, e, "COPY (SELECT CASE WHEN i % 1000 = 999 THEN NULL ELSE i END AS ok, i % 5 AS st FROM range(10000) t(i)) TO 'o.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)")
	exec(t, e, "COPY (SELECT CASE WHEN i % 997 = 0 THEN NULL ELSE CAST(i // 4 AS BIGINT) END AS lk, i AS ln FROM range(40000) t(i)) TO 'l.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 4000)")
	return e
}

// A filter on one side of a join key is copied onto the other side's key
// (implied.go), so both scans prune; the answers equal those of the same
// query with a filter no rule copies (ok + 0 < 1000).
func TestKeyFilterCopiedAcrossJoin(t *testing.T) {
	e := keyFilterFiles(t)
	for _, c := range []struct {
		q, same string
		pruned  []string // the scans that prune 9 of their 10 row groups
	}{
		// Inner joins: WHERE, ON, either side, a derived table.
		{"SELECT count(*), sum(ln) FROM o JOIN (SELECT * FROM l) x ON x.lk = o.ok WHERE o.ok < 1000",
			"SELECT count(*), sum(ln) FROM o JOIN (SELECT * FROM l) x ON x.lk = o.ok WHERE o.ok + 0 < 1000", []string{"o", "l"}},
		{"SELECT count(*), sum(ln) FROM o JOIN l ON lk = ok WHERE lk >= 9000",
			"SELECT count(*), sum(ln) FROM o JOIN l ON lk = ok WHERE lk + 0 >= 9000", []string{"o", "l"}},
		{"SELECT count(*), sum(ln) FROM o JOIN l ON lk = ok AND ok BETWEEN 2000 AND 2999",
			"SELECT count(*), sum(ln) FROM o JOIN l ON lk = ok AND ok + 0 BETWEEN 2000 AND 2999", []string{"o", "l"}},
		{"SELECT count(*), sum(ln) FROM o, l WHERE ok = lk AND ok IN (5, 998, 999)",
			"SELECT count(*), sum(ln) FROM o, l WHERE ok = lk AND ok + 0 IN (5, 998, 999)", []string{"o", "l"}},
		// Through two equalities: the filter on l reaches the other o.
		{"SELECT count(*) FROM o a JOIN l ON l.lk = a.ok JOIN o b ON b.ok = l.lk WHERE a.ok < 1000",
			"SELECT count(*) FROM o a JOIN l ON l.lk = a.ok JOIN o b ON b.ok = l.lk WHERE a.ok + 0 < 1000", []string{"a", "l", "b"}},
		// LEFT JOIN: the WHERE on the kept side filters the other side's
		// key before the join (its unmatched rows are dropped anyway).
		{"SELECT count(*), count(x.lk), sum(ln) FROM o LEFT JOIN (SELECT * FROM l) x ON x.lk = o.ok WHERE o.ok < 1000",
			"SELECT count(*), count(x.lk), sum(ln) FROM o LEFT JOIN (SELECT * FROM l) x ON x.lk = o.ok WHERE o.ok + 0 < 1000", []string{"o", "l"}},
		// An ON filter on the kept side keeps every row of it, but lets
		// only the right side's rows with those keys match.
		{"SELECT count(*), count(lk), sum(ln) FROM o LEFT JOIN l ON lk = ok AND ok < 1000",
			"SELECT count(*), count(lk), sum(ln) FROM o LEFT JOIN l ON lk = ok AND ok + 0 < 1000", []string{"l"}},
		// A RIGHT JOIN keeps l: the WHERE on l filters o's keys.
		{"SELECT count(*), count(ok), sum(ln) FROM o RIGHT JOIN l ON lk = ok WHERE lk < 1000",
			"SELECT count(*), count(ok), sum(ln) FROM o RIGHT JOIN l ON lk = ok WHERE lk + 0 < 1000", []string{"o", "l"}},
	} {
		got, want := fmt.Sprint(queryAll(t, e, c.q)), fmt.Sprint(queryAll(t, e, c.same))
		if got != want {
			t.Errorf("%s: got %s, want %s", c.q, got, want)
		}
		pl := analyzed(t, e, c.q)
		if n := strings.Count(pl, "row groups 10 (pruned 9 by statistics"); n != len(c.pruned) {
			t.Errorf("%s: %d scans should prune 9 of 10 row groups (%d do):\n%s", c.q, len(c.pruned), n, pl)
		}
	}
}

// Where a filter must not be copied: onto the kept side of an outer join
// from its ON (the kept rows stay, matched or not), or from a FULL
// JOIN's WHERE; and not between keys of different types. The answers
// equal those of the same query with a filter no rule copies.
func TestKeyFilterNotCopied(t *testing.T) {
	e := keyFilterFiles(t)
	for _, c := range []struct {
		q, same string
		keeps   []string // the scans that must return all their rows
	}{
		{"SELECT count(*), count(lk) FROM o LEFT JOIN l ON lk = ok AND lk < 1000",
			"SELECT count(*), count(lk) FROM o LEFT JOIN l ON lk = ok AND lk + 0 < 1000", []string{"o"}},
		{"SELECT count(*), count(lk) FROM o LEFT JOIN l ON lk = ok AND ok < 1000",
			"SELECT count(*), count(lk) FROM o LEFT JOIN l ON lk = ok AND ok + 0 < 1000", []string{"o"}},
		// The WHERE on the side a LEFT JOIN fills with NULLs.
		{"SELECT count(*), count(ok) FROM o LEFT JOIN l ON lk = ok WHERE lk < 1000",
			"SELECT count(*), count(ok) FROM o LEFT JOIN l ON lk = ok WHERE lk + 0 < 1000", nil},
		// FULL JOIN: o's unmatched rows (its NULL keys among them) and l's
		// stay.
		{"SELECT count(*), count(ok), count(lk) FROM o FULL JOIN l ON lk = ok WHERE ok < 1000 OR lk IS NULL",
			"SELECT count(*), count(ok), count(lk) FROM o FULL JOIN l ON lk = ok WHERE ok + 0 < 1000 OR lk IS NULL", []string{"o", "l"}},
		{"SELECT count(*), count(ok), count(lk) FROM o FULL JOIN l ON lk = ok WHERE ok < 1000",
			"SELECT count(*), count(ok), count(lk) FROM o FULL JOIN l ON lk = ok WHERE ok + 0 < 1000", []string{"o", "l"}},
		// A double key equal to an integer one: 0.5 is no integer.
		{"SELECT count(*) FROM o JOIN (SELECT lk / 2 AS h FROM l) x ON x.h = o.ok WHERE x.h < 1.5",
			"SELECT count(*) FROM o JOIN (SELECT lk / 2 AS h FROM l) x ON x.h = o.ok WHERE x.h + 0 < 1.5", []string{"o"}},
	} {
		got, want := fmt.Sprint(queryAll(t, e, c.q)), fmt.Sprint(queryAll(t, e, c.same))
		if got != want {
			t.Errorf("%s: got %s, want %s", c.q, got, want)
		}
		pl := analyzed(t, e, c.q)
		for _, alias := range c.keeps {
			all := map[string]string{"o": "rows decoded 10000, rows returned 10000", "l": "rows decoded 40000, rows returned 40000"}[alias]
			if !strings.Contains(pl, all) {
				t.Errorf("%s: %s's scan should return all its rows:\n%s", c.q, alias, pl)
			}
		}
	}
}
