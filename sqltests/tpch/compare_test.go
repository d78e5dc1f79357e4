package tpch

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// TestCompare checks the comparison itself on hand-made answers.
func TestCompare(t *testing.T) {
	q := Query{Name: "qx", SortKeys: []string{"k"}}
	dec := func(v int64, scale uint8) duckdb.Decimal {
		return duckdb.Decimal{Width: 15, Scale: scale, Value: big.NewInt(v)}
	}
	day := time.Date(1995, 3, 15, 0, 0, 0, 0, time.UTC)
	want := &Result{Columns: []string{"k", "d", "f", "s"}, Types: []string{"INTEGER", "DECIMAL(15,2)", "DOUBLE", "DATE"},
		Rows: [][]any{{int32(1), dec(150, 2), 0.1 + 0.2, day}, {int32(2), dec(-5, 1), 3.0, day}, {int32(2), dec(7, 0), 4.0, day}}}
	got := func(rows ...[]any) *Result {
		return &Result{Columns: []string{"k", "d", "f", "s"}, Types: []string{"BIGINT", "DECIMAL(18,4)", "DOUBLE", "DATE"}, Rows: rows}
	}
	ok := got([]any{int64(1), "1.5000", 0.3, day}, []any{int64(2), "7", 4.0, day}, []any{int64(2), "-0.50", 3.0000000000001, day})
	if err := Compare(q, ok, want); err != nil {
		t.Errorf("equal answers (ties in another order, scales differ, floats within 1e-9): %v", err)
	}
	for name, bad := range map[string]*Result{
		"decimal":  got([]any{int64(1), "1.51", 0.3, day}, []any{int64(2), "7", 4.0, day}, []any{int64(2), "-0.5", 3.0, day}),
		"float":    got([]any{int64(1), "1.5", 0.3000001, day}, []any{int64(2), "7", 4.0, day}, []any{int64(2), "-0.5", 3.0, day}),
		"order":    got([]any{int64(2), "7", 4.0, day}, []any{int64(1), "1.5", 0.3, day}, []any{int64(2), "-0.5", 3.0, day}),
		"rows":     got([]any{int64(1), "1.5", 0.3, day}),
		"null":     got([]any{int64(1), nil, 0.3, day}, []any{int64(2), "7", 4.0, day}, []any{int64(2), "-0.5", 3.0, day}),
		"date":     got([]any{int64(1), "1.5", 0.3, day.AddDate(0, 0, 1)}, []any{int64(2), "7", 4.0, day}, []any{int64(2), "-0.5", 3.0, day}),
		"text/num": got([]any{"1", "1.5", 0.3, day}, []any{int64(2), "7", 4.0, day}, []any{int64(2), "-0.5", 3.0, day}),
	} {
		err := Compare(q, bad, want)
		if err == nil {
			t.Errorf("%s: a different answer compared equal", name)
		} else if !strings.Contains(err.Error(), "qx") {
			t.Errorf("%s: message does not name the query: %v", name, err)
		}
	}
}

func TestSortKeys(t *testing.T) {
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int
		keys string
	}{{1, "l_returnflag,l_linestatus"}, {2, "s_acctbal,n_name,s_name,p_partkey"}, {6, ""}, {9, "nation,o_year"}, {13, "custdist,c_count"}, {21, "numwait,s_name"}} {
		if got := strings.Join(qs[c.n-1].SortKeys, ","); got != c.keys {
			t.Errorf("q%02d: sort keys %q, want %q", c.n, got, c.keys)
		}
	}
}
