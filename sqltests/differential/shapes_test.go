package differential

import (
	"regexp"
	"testing"
)

// TestShapesDrawn checks that the CI run's statements (seeds 1-3,
// defaultN each) hold every query shape the doc lists, so that a change
// to the generator cannot drop one unnoticed.
func TestShapesDrawn(t *testing.T) {
	shapes := map[string]*regexp.Regexp{
		"correlated scalar subquery": regexp.MustCompile(`\(SELECT [^()]*\bFROM t\d x\d+ WHERE \(x\d+\.\w+ [=<>]+ o\.`),
		"correlated LIMIT 1":         regexp.MustCompile(`ORDER BY x\d+\.\w+( DESC)?, x\d+\.id LIMIT 1`),
		"correlated EXISTS":          regexp.MustCompile(`EXISTS \(SELECT x\d+\.id`),
		"correlated HAVING":          regexp.MustCompile(`HAVING \(.*\(SELECT .* o\.k`),
		"ROWS frame":                 regexp.MustCompile(`ROWS (BETWEEN )?(UNBOUNDED|\d+|CURRENT)`),
		"RANGE frame":                regexp.MustCompile(`RANGE (BETWEEN )?(UNBOUNDED|\d+|INTERVAL|CURRENT)`),
		"GROUPS frame":               regexp.MustCompile(`GROUPS (BETWEEN )?(UNBOUNDED|\d+|CURRENT)`),
		"EXCLUDE":                    regexp.MustCompile(`EXCLUDE (CURRENT ROW|GROUP|TIES|NO OTHERS)`),
		"named window":               regexp.MustCompile(`WINDOW w AS`),
		"QUALIFY":                    regexp.MustCompile(`QUALIFY`),
		"grouping sets":              regexp.MustCompile(`GROUP BY (ROLLUP|CUBE|GROUPING SETS) \(`),
		"GROUPING()":                 regexp.MustCompile(`GROUPING\(`),
		"DISTINCT ON":                regexp.MustCompile(`DISTINCT ON \(`),
		"ordered aggregate":          regexp.MustCompile(`(string_agg|list)\(.* ORDER BY .*, id\)`),
		"FILTER":                     regexp.MustCompile(`FILTER \(WHERE`),
		"USING":                      regexp.MustCompile(`USING \(k`),
		"NATURAL":                    regexp.MustCompile(`NATURAL (JOIN|LEFT JOIN|FULL JOIN)`),
		"SEMI/ANTI":                  regexp.MustCompile(`(SEMI|ANTI) JOIN`),
		"LATERAL":                    regexp.MustCompile(`LATERAL \(`),
		"three-way join":             regexp.MustCompile(`JOIN t\d b ON .* JOIN t\d c ON`),
		"CTE twice":                  regexp.MustCompile(`^WITH w AS \(.*FROM w a`),
		"CTE chain":                  regexp.MustCompile(`^WITH w1 AS \(.*\), w2 AS \(.*FROM w1`),
		"recursive CTE":              regexp.MustCompile(`^WITH RECURSIVE r\(id, n, lim\)`),
		"set operations in parens":   regexp.MustCompile(`(UNION|INTERSECT|EXCEPT)( ALL)? \(SELECT|^\(SELECT`),
		"LIMIT in a subquery":        regexp.MustCompile(`LIMIT \d+( OFFSET \d+)?\) `),
	}
	found := map[string]int{}
	for _, seed := range defaultSeeds {
		tables, err := GenerateTables(seed, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for i := range defaultN {
			sql := NewGenerator(seed, i, tables).Query().SQL()
			for name, re := range shapes {
				if re.MatchString(sql) {
					found[name]++
				}
			}
		}
	}
	for name := range shapes {
		if found[name] == 0 {
			t.Errorf("no statement of the CI run has the shape %q", name)
		}
	}
	t.Logf("statements by shape: %v", found)
}
