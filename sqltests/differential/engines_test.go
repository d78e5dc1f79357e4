package differential

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	_ "github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqlplan"
)

// maxRows bounds the rows read from either engine; a statement whose
// result is larger is skipped (the generator keeps joins small enough
// that this is rare).
const maxRows = 50_000

// queryTimeout bounds one statement on one engine.
const queryTimeout = 60 * time.Second

// engines holds the tables of one seed and both engines over them.
type engines struct {
	seed   int64
	dir    string
	tables []*Table
	// typed is t4, the table of the typed statements (gen_types.go).
	typed *Table
	duck  *sql.DB
	carq  *sql.DB
	// Time spent in each engine.
	duckTime, carqTime time.Duration
}

// openEngines writes the tables of seed into a new folder and opens
// DuckDB and carquet over it. The folder is removed at the end of the test
// unless the test failed or -keep is set.
func openEngines(t testing.TB, seed int64) *engines {
	t.Helper()
	dir, err := os.MkdirTemp("", fmt.Sprintf("carquet-differential-%d-", seed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || *flagKeep {
			t.Logf("data files of seed %d kept in %s", seed, dir)
			return
		}
		os.RemoveAll(dir)
	})
	tables, err := GenerateTables(seed, dir)
	if err != nil {
		t.Fatalf("seed %d: generating tables: %v", seed, err)
	}
	typed, err := GenerateTypedTable(seed, dir)
	if err != nil {
		t.Fatalf("seed %d: generating t4: %v", seed, err)
	}
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	// One connection, so that the settings hold for every statement; one
	// thread, so that DuckDB's float sums have a fixed order and the
	// shared machine is not crowded.
	duck.SetMaxOpenConns(1)
	t.Cleanup(func() { duck.Close() })
	setup := []string{"SET threads=1", "SET TimeZone='UTC'"}
	for _, tb := range append(tables, typed) {
		setup = append(setup, fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet('%s')", tb.Name, strings.ReplaceAll(tb.Path, "'", "''")))
	}
	for _, s := range setup {
		if _, err := duck.Exec(s); err != nil {
			t.Fatalf("DuckDB: %s: %v", s, err)
		}
	}
	carq, err := sql.Open("carquet", dir+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { carq.Close() })
	return &engines{seed: seed, dir: dir, tables: tables, typed: typed, duck: duck, carq: carq}
}

// describe is the tables and where they are, for failure reports.
func (e *engines) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "data files: %s (seed %d, tables version %d)", e.dir, e.seed, TablesVersion)
	for _, t := range append(e.tables, e.typed) {
		b.WriteString("\n    " + t.Describe())
	}
	return b.String()
}

// run runs a statement on one engine and normalises its result.
func run(db *sql.DB, query string) *Result {
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	res := &Result{}
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		res.Err = err
		return res
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		res.Err = err
		return res
	}
	for _, c := range cts {
		res.Types = append(res.Types, c.DatabaseTypeName())
	}
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(res.Rows) == maxRows {
			res.Err = errTooLarge
			return res
		}
		if err := rows.Scan(ptrs...); err != nil {
			res.Err = err
			return res
		}
		row := make([]Value, len(vals))
		for i, v := range vals {
			row[i], err = normalize(v, res.Types[i])
			if err != nil {
				res.Err = fmt.Errorf("column %d: %w", i+1, err)
				return res
			}
		}
		res.Rows = append(res.Rows, row)
	}
	res.Err = rows.Err()
	return res
}

var errTooLarge = fmt.Errorf("more than %d rows", maxRows)

func init() { normalizeAny = normalize }

// normalize adds DuckDB's own Go types to Normalize.
func normalize(v any, dbType string) (Value, error) {
	switch x := v.(type) {
	case duckdb.Decimal:
		return ExactDecimal(x.Value, int(x.Scale)), nil
	case duckdb.Interval:
		return IntervalValue(x.Months, x.Days, x.Micros), nil
	case duckdb.OrderedMap:
		return normalizeMap(x.Keys(), x.Values(), dbType)
	}
	return Normalize(v, dbType)
}

// Outcome is how the two engines compared on one statement.
type Outcome int

const (
	Same           Outcome = iota
	Mismatch               // both ran it and the results differ
	LossyType              // the values agree, but carquet computed a DECIMAL in floating point
	CarquetError           // DuckDB ran it, carquet failed
	MissedOverflow         // DuckDB found a BIGINT overflow, carquet returned rows
	Unsupported            // DuckDB ran it, carquet refused a feature by name
	DuckDBError            // carquet ran it, DuckDB failed
	BothError
	TooLarge
	numOutcomes
)

func (o Outcome) String() string {
	return [...]string{"same", "mismatch", "decimal computed as float", "carquet error", "overflow missed by carquet", "unsupported by carquet", "DuckDB error only", "both error", "too large"}[o]
}

// failing reports the outcomes that fail the test.
func (o Outcome) failing() bool {
	return o == Mismatch || o == LossyType || o == CarquetError || o == MissedOverflow
}

// comparison is the full record of one statement on both engines.
type comparison struct {
	sql     string
	ordered bool
	duck    *Result
	carq    *Result
	outcome Outcome
	detail  string
}

func (e *engines) compare(query string, ordered bool) *comparison {
	c := &comparison{sql: query, ordered: ordered}
	t0 := time.Now()
	c.duck = run(e.duck, query)
	t1 := time.Now()
	c.carq = run(e.carq, query)
	e.duckTime += t1.Sub(t0)
	e.carqTime += time.Since(t1)
	de, ce := c.duck.Err, c.carq.Err
	switch {
	case errors.Is(de, errTooLarge) || errors.Is(ce, errTooLarge):
		c.outcome = TooLarge
	case de != nil && ce != nil:
		c.outcome = BothError
	case de != nil:
		c.outcome, c.detail = DuckDBError, firstLine(de)
		if missedOverflow.MatchString(c.detail) {
			c.outcome = MissedOverflow
		}
	case ce != nil:
		c.outcome, c.detail = CarquetError, firstLine(ce)
		if errors.Is(ce, sqlplan.ErrUnsupported) || strings.Contains(ce.Error(), "not supported") {
			c.outcome = Unsupported
		}
	default:
		if d := Diff(c.duck, c.carq, ordered); d != "" {
			c.outcome, c.detail = Mismatch, d
		} else if d := TypeLoss(c.duck, c.carq); d != "" {
			c.outcome, c.detail = LossyType, d
		}
	}
	return c
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

var digits = regexp.MustCompile(`[0-9]+`)

// missedOverflow matches DuckDB's errors for an integer result out of
// its type's range, of every width (carquet keeps the widths as DuckDB),
// and for a cast to an integer type that does not hold the value.
var missedOverflow = regexp.MustCompile(`Overflow in [a-z]+ of U?INT(8|16|32|64)|Overflow in negation of numeric value|Overflow on abs\(|can't be cast because the value is out of range for the destination type U?INT`)

// errorClass is an error message with its numbers and quoted parts
// blurred, for counting errors by kind.
func errorClass(msg string) string {
	msg = regexp.MustCompile(`"[^"]*"|'[^']*'`).ReplaceAllString(msg, "…")
	msg = digits.ReplaceAllString(msg, "N")
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return msg
}

// report is the failure report of a comparison.
func (e *engines) report(c *comparison, minimized *comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n  SQL:     %s\n", c.outcome, c.detail, c.sql)
	if minimized != nil && minimized.sql != c.sql {
		fmt.Fprintf(&b, "  minimal: %s\n  (%s: %s)\n", minimized.sql, minimized.outcome, minimized.detail)
		c = minimized
	}
	fmt.Fprintf(&b, "  DuckDB:  %s\n  carquet: %s\n  %s", c.duck.Format(20), c.carq.Format(20), e.describe())
	return b.String()
}
