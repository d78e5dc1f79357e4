package sqlplan

import (
	"context"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// logicalTrees plans a SELECT and returns the outermost query's logical
// tree as bound and as optimized (the last of each stage that planCore
// reports: subqueries are planned while their query is bound).
func logicalTrees(t *testing.T, e *Engine, q string) (bound, optimized string) {
	t.Helper()
	s, err := e.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	p := &plan.Planner{Cat: &stmtCatalog{e: s.e}, Src: s.Src, Ctx: context.Background(), Set: e.settingsFor(nil)}
	p.OnLogical = func(stage string, lq *plan.LQuery) {
		text := plan.ExplainLogical(lq.Root)
		if stage == "bind" {
			bound = text
		} else {
			optimized = text
		}
	}
	sp, err := s.Plan(p)
	if err != nil {
		p.ReleaseAll()
		t.Fatalf("%s: %v", q, err)
	}
	sp.Root.Close()
	p.ReleaseAll()
	return bound, optimized
}

// TestLogicalPlans shows the logical tree of a few SELECTs as bound and
// after the optimizer's rules: WHERE conjuncts pushed into the scans or
// made join keys, ON conditions sorted, columns pruned, and the clauses
// above the joins (aggregate, HAVING, window, QUALIFY, sort, limit) in
// their order; a derived table's tree (a UNION here) under it, with the
// outer filters moved into it; a filter copied across a LEFT JOIN's key;
// a UNION chain with its ORDER BY and LIMIT. (QUALIFY
// rn = 1 binds the item rn names again: the window function is computed
// twice, as before the logical plan.)
func TestLogicalPlans(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE c (id BIGINT, name VARCHAR, nation BIGINT)")
	exec(t, e, "CREATE TABLE o (oid BIGINT, cust BIGINT, total DOUBLE, flag VARCHAR)")
	exec(t, e, "CREATE TABLE n (nid BIGINT, nname VARCHAR)")
	// A case without optimized text expects the bound tree unchanged.
	for _, tc := range []struct{ q, bound, optimized string }{
		{
			q: "SELECT c.name, o.total FROM c, o, n WHERE c.id = o.cust AND c.nation = n.nid AND o.total > 100 AND n.nname = 'FR' AND o.flag LIKE '%x%' ORDER BY o.total DESC LIMIT 5",
			bound: `LIMIT 5 OFFSET 0
  SORT o.total DESC top 5
    PROJECT c.name, o.total
      FILTER WHERE: c.id = o.cust AND c.nation = n.nid AND o.total > 100 AND n.nname = 'FR' AND o.flag like '%x%'
        CROSS JOIN
          CROSS JOIN
            SCAN c
            SCAN o
          SCAN n
`,
			optimized: `LIMIT 5 OFFSET 0
  SORT o.total DESC top 5
    PROJECT c.name, o.total
      FILTER WHERE: (nothing left)
        INNER JOIN keys: c.nation = n.nid keeps 2 of 7 columns
          INNER JOIN keys: c.id = o.cust keeps 3 of 6 columns
            SCAN c columns: id, name, nation
            SCAN o columns: cust, total, flag pushed: total > 100 filter: o.flag like '%x%' (1 filter-only columns dropped)
          SCAN n columns: nid pushed: nname = 'FR'
`,
		},
		{
			q: "SELECT o.cust, sum(o.total) AS s FROM o WHERE o.flag = 'F' GROUP BY o.cust HAVING count(*) > 2",
			bound: `PROJECT o.cust, sum(o.total)
  FILTER HAVING: count(*) > 2
    AGGREGATE group by: o.cust aggregates: sum(o.total), count(*)
      FILTER WHERE: o.flag = 'F'
        SCAN o
`,
			optimized: `PROJECT o.cust, sum(o.total)
  FILTER HAVING: count(*) > 2
    AGGREGATE group by: o.cust aggregates: sum(o.total), count(*)
      FILTER WHERE: (nothing left)
        SCAN o columns: cust, total pushed: flag = 'F'
`,
		},
		{
			q: "SELECT oid, cust, row_number() OVER (PARTITION BY cust ORDER BY total DESC) AS rn FROM o QUALIFY rn = 1",
			bound: `PROJECT oid, cust, row_number(...) OVER (...)
  FILTER QUALIFY: row_number(...) OVER (...) = 1
    WINDOW row_number() OVER (PARTITION BY cust ORDER BY total DESC), row_number() OVER (PARTITION BY cust ORDER BY total DESC)
      FILTER WHERE: (nothing left)
        SCAN o
`,
			optimized: `PROJECT oid, cust, row_number(...) OVER (...)
  FILTER QUALIFY: row_number(...) OVER (...) = 1
    WINDOW row_number() OVER (PARTITION BY cust ORDER BY total DESC), row_number() OVER (PARTITION BY cust ORDER BY total DESC)
      FILTER WHERE: (nothing left)
        SCAN o columns: oid, cust, total
`,
		},
		{
			q: "SELECT c.name, o.oid FROM c LEFT JOIN o ON o.cust = c.id AND o.flag = 'F' AND o.total * 2 > 10 WHERE o.total IS NULL OR o.total < 50",
			bound: `PROJECT c.name, o.oid
  FILTER WHERE: o.total is null or o.total < 50
    LEFT JOIN on: o.cust = c.id AND o.flag = 'F' AND o.total * 2 > 10
      SCAN c
      SCAN o
`,
			optimized: `PROJECT c.name, o.oid
  FILTER WHERE: o.total is null or o.total < 50
    LEFT JOIN keys: c.id = o.cust keeps 3 of 5 columns
      SCAN c columns: id, name
      SCAN o columns: oid, cust, total pushed: flag = 'F' filter: o.total * 2 > 10
`,
		},
		{
			// A derived UNION stays logical too: the outer WHERE goes into
			// each of its SELECTs (by position), and on into their scans.
			q: "SELECT x.k FROM (SELECT cust AS k FROM o WHERE total > 5 UNION ALL SELECT id FROM c) x WHERE x.k > 1 ORDER BY 1 LIMIT 3",
			bound: `LIMIT 3 OFFSET 0
  SORT 1 top 3
    PROJECT x.k
      FILTER WHERE: x.k > 1
        DERIVED x
          UNION ALL
            PROJECT cust
              FILTER WHERE: total > 5
                SCAN o
            PROJECT id
              FILTER WHERE: (nothing left)
                SCAN c
`,
			optimized: `LIMIT 3 OFFSET 0
  SORT 1 top 3
    PROJECT x.k
      FILTER WHERE: (nothing left)
        DERIVED x
          UNION ALL
            PROJECT cust
              FILTER WHERE: (nothing left)
                SCAN o columns: cust pushed: total > 5 AND cust > 1
            PROJECT id
              FILTER WHERE: (nothing left)
                SCAN c columns: id pushed: id > 1
`,
		},
		{
			// TPC-H-shaped: orders joined to the union of two years of
			// lineitem-like rows. The filter on the union's column moves
			// into both branches' scans, and the branches compute only
			// the two columns the join and the sum read.
			q: "SELECT o.flag, sum(l.total) FROM o JOIN (SELECT * FROM o WHERE flag = 'A' UNION ALL SELECT * FROM o WHERE flag = 'B') l ON l.cust = o.oid WHERE l.total > 100 GROUP BY o.flag",
			bound: `PROJECT o.flag, sum(l.total)
  AGGREGATE group by: o.flag aggregates: sum(l.total)
    FILTER WHERE: l.total > 100
      INNER JOIN on: l.cust = o.oid
        SCAN o
        DERIVED l
          UNION ALL
            PROJECT oid, cust, total, flag
              FILTER WHERE: flag = 'A'
                SCAN o
            PROJECT oid, cust, total, flag
              FILTER WHERE: flag = 'B'
                SCAN o
`,
			optimized: `PROJECT o.flag, sum(l.total)
  AGGREGATE group by: o.flag aggregates: sum(l.total)
    FILTER WHERE: (nothing left)
      INNER JOIN keys: o.oid = l.cust keeps 2 of 6 columns
        SCAN o columns: oid, flag
        DERIVED l
          UNION ALL
            PROJECT (unread), cust, total, (unread)
              FILTER WHERE: (nothing left)
                SCAN o columns: cust, total pushed: flag = 'A' AND total > 100
            PROJECT (unread), cust, total, (unread)
              FILTER WHERE: (nothing left)
                SCAN o columns: cust, total pushed: flag = 'B' AND total > 100
`,
		},
		{
			// A derived SELECT stays logical: the outer WHERE goes into
			// it, its scan gets the filter, and the outputs the outer
			// query does not read are not computed.
			q: "SELECT count(*) FROM (SELECT * FROM o) x WHERE x.cust > 1",
			bound: `PROJECT count(*)
  AGGREGATE aggregates: count(*)
    FILTER WHERE: x.cust > 1
      DERIVED x
        PROJECT oid, cust, total, flag
          FILTER WHERE: (nothing left)
            SCAN o
`,
			optimized: `PROJECT count(*)
  AGGREGATE aggregates: count(*)
    FILTER WHERE: (nothing left)
      DERIVED x
        PROJECT (unread), (unread), (unread), (unread)
          FILTER WHERE: (nothing left)
            SCAN o pushed: cust > 1
`,
		},
		{
			// The WHERE's filter on the kept side of a LEFT JOIN is copied
			// onto the other side's key, in the join's ON, and from there
			// into the derived table's scan.
			q: "SELECT c.name, x.total FROM c LEFT JOIN (SELECT * FROM o) x ON x.cust = c.id WHERE c.id < 10",
			bound: `PROJECT c.name, x.total
  FILTER WHERE: c.id < 10
    LEFT JOIN on: x.cust = c.id
      SCAN c
      DERIVED x
        PROJECT oid, cust, total, flag
          FILTER WHERE: (nothing left)
            SCAN o
`,
			optimized: `PROJECT c.name, x.total
  FILTER WHERE: (nothing left)
    LEFT JOIN keys: c.id = x.cust keeps 2 of 6 columns
      SCAN c columns: id, name pushed: id < 10
      DERIVED x
        PROJECT (unread), cust, total, (unread)
          FILTER WHERE: (nothing left)
            SCAN o columns: cust, total pushed: cust < 10
`,
		},
		{
			// A UNION chain: UNION after UNION ALL dedups all rows so far;
			// ORDER BY and LIMIT apply to the union. Its SELECTs are
			// optimized with it.
			q: "SELECT nid FROM n UNION ALL SELECT cust FROM o UNION SELECT id FROM c WHERE nation = 2 ORDER BY 1 DESC LIMIT 4",
			bound: `LIMIT 4 OFFSET 0
  SORT nid DESC top 4
    UNION ALL, UNION
      PROJECT nid
        FILTER WHERE: (nothing left)
          SCAN n
      PROJECT cust
        FILTER WHERE: (nothing left)
          SCAN o
      PROJECT id
        FILTER WHERE: nation = 2
          SCAN c
`,
			optimized: `LIMIT 4 OFFSET 0
  SORT nid DESC top 4
    UNION ALL, UNION
      PROJECT nid
        FILTER WHERE: (nothing left)
          SCAN n columns: nid
      PROJECT cust
        FILTER WHERE: (nothing left)
          SCAN o columns: cust
      PROJECT id
        FILTER WHERE: (nothing left)
          SCAN c columns: id pushed: nation = 2
`,
		},
	} {
		bound, optimized := logicalTrees(t, e, tc.q)
		if tc.optimized == "" {
			tc.optimized = tc.bound
		}
		if bound != tc.bound {
			t.Errorf("%s: bound\n%s\nwant\n%s", tc.q, bound, tc.bound)
		}
		if optimized != tc.optimized {
			t.Errorf("%s: optimized\n%s\nwant\n%s", tc.q, optimized, tc.optimized)
		}
	}
}
