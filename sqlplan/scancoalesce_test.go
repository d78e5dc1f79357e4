package sqlplan

import (
	"context"
	"fmt"
	"io"
	"testing"
)

// A selective pushed filter keeps a few rows of each decoded batch; the
// scan hands them on joined into larger batches, in the scan's order,
// with their NULLs and strings intact.
func TestScanJoinsSmallBatches(t *testing.T) {
	e := newEngine(t)
	const rows = 100_000
	exec(t, e, fmt.Sprintf(`COPY (SELECT i, i %% 1000 AS n, 'v' || i AS s, CASE WHEN i %% 2000 = 1 THEN NULL ELSE i * 2 END AS m
		FROM range(%d) t(i)) TO 't.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 25000)`, rows))
	var want [][]any
	for i := int64(0); i < rows; i++ {
		if i%1000 < 3 {
			var m any = i * 2
			if i%2000 == 1 {
				m = nil
			}
			want = append(want, []any{i, fmt.Sprintf("v%d", i), m})
		}
	}

	s, err := e.Prepare("SELECT i, s, m FROM 't.parquet' WHERE n < 3")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Query(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got [][]any
	batches := 0
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		batches++
		for i := 0; i < b.N; i++ {
			got = append(got, []any{b.Cols[0].Get(i), b.Cols[1].Get(i), b.Cols[2].Get(i)})
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows differ:\n got %v\nwant %v", got, want)
	}
	// 13 decoded batches of 8192 rows hold the 300 rows: joined, they
	// come out as far fewer batches.
	if batches > 2 {
		t.Errorf("%d batches for %d rows: the small batches were not joined", batches, len(got))
	}

	limited := queryAll(t, e, "SELECT i FROM 't.parquet' WHERE n < 3 LIMIT 5")
	if fmt.Sprint(limited) != "[[0] [1] [2] [1000] [1001]]" {
		t.Errorf("LIMIT 5 over the joined batches: %v", limited)
	}
}
