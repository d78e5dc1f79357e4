package tpch

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The test's scale factor is $CARQUET_TPCH_SF (default 0.01); the data is
// cached under CacheRoot() and generated on first use.
var (
	dsOnce sync.Once
	ds     Dataset
	dsErr  error
)

func testSF(t testing.TB) float64 {
	if s := os.Getenv("CARQUET_TPCH_SF"); s != "" {
		sf, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("CARQUET_TPCH_SF=%q: %v", s, err)
		}
		return sf
	}
	return 0.01
}

func dataset(t testing.TB) Dataset {
	t.Helper()
	dsOnce.Do(func() {
		root, err := CacheRoot()
		if err != nil {
			dsErr = err
			return
		}
		ds, dsErr = Prepare(root, testSF(t), t.Logf)
	})
	if dsErr != nil {
		t.Fatal(dsErr)
	}
	return ds
}

// Row counts of the official dbgen at SF 0.01 (lineitem's depends on every
// order's random line count, so it checks the generator's streams).
var sf001Rows = map[string]int64{
	"region": 5, "nation": 25, "supplier": 100, "customer": 1500,
	"part": 2000, "partsupp": 8000, "orders": 15000, "lineitem": 60175,
}

func TestRowCounts(t *testing.T) {
	d := dataset(t)
	for _, w := range Writers {
		for _, e := range Engines {
			db, err := Open(e, d.Path(w), 2)
			if err != nil {
				t.Fatal(err)
			}
			counts, err := Count(db, Tables())
			db.Close()
			if err != nil {
				t.Fatalf("%s over %s's files: %v", e, w, err)
			}
			for _, tb := range Tables() {
				want := sf001Rows[tb]
				if d.SF != 0.01 {
					want = counts[tb] // only the engines' agreement below
				}
				if counts[tb] != want {
					t.Errorf("%s over %s's files: %s has %d rows, want %d", e, w, tb, counts[tb], want)
				}
			}
			t.Logf("%s over %s's files: %v", e, w, counts)
		}
	}
}

// TestQueries runs the 22 queries on carquet and on DuckDB over the same
// files, for the files of each writer, and requires equal answers. A
// carquet query gets $CARQUET_TPCH_QUERY_TIMEOUT (default 45s, where
// DuckDB takes milliseconds at SF 0.01); past it the query fails.
func TestQueries(t *testing.T) {
	d := dataset(t)
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	timeout := 45 * time.Second
	if s := os.Getenv("CARQUET_TPCH_QUERY_TIMEOUT"); s != "" {
		if timeout, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range Writers {
		t.Run(w+"-files", func(t *testing.T) {
			carq, duck := openBoth(t, d.Path(w))
			for _, q := range qs {
				t.Run(q.Name, func(t *testing.T) {
					want, err := Run(context.Background(), duck, q.SQL)
					if err != nil {
						t.Fatalf("%s: DuckDB: %v", q.Name, err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), timeout)
					defer cancel()
					start := time.Now()
					got, err := Run(ctx, carq, q.SQL)
					if err != nil {
						if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
							t.Fatalf("%s: carquet: no answer within %v: %v", q.Name, timeout, err)
						}
						t.Fatalf("%s: carquet: %v", q.Name, err)
					}
					if err := Compare(q, got, want); err != nil {
						t.Fatal(err)
					}
					t.Logf("%s: %d rows equal (carquet %v)", q.Name, len(want.Rows), time.Since(start).Round(time.Millisecond))
				})
			}
		})
	}
}

// openBoth opens carquet and DuckDB over dir at two threads each, closed
// when t ends.
func openBoth(t testing.TB, dir string) (carq, duck *sql.DB) {
	t.Helper()
	carq, err := OpenCarquet(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { carq.Close() })
	duck, err = OpenDuckDB(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { duck.Close() })
	return carq, duck
}
