package dml

import (
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// HiveGroups names rows' folders as DuckDB does (percent-encoding, NULL
// as __HIVE_DEFAULT_PARTITION__), in the order rows meet them, and
// HiveDir names a file's folder from its partition values the same way.
func TestHiveGroups(t *testing.T) {
	fields := []*schema.Field{{Name: "y"}, {Name: "city"}}
	y, city := vec.NewBuilder(vec.Type{Kind: vec.KInt}, 4), vec.NewBuilder(vec.Type{Kind: vec.KString}, 4)
	for _, r := range []struct {
		y    any
		city any
	}{{int64(2024), "São Paulo"}, {int64(2025), nil}, {int64(2024), "São Paulo"}, {nil, "a/b"}} {
		y.Add(r.y)
		city.Add(r.city)
	}
	order, rows := HiveGroups(fields, []*vec.Col{y.C, city.C}, 4)
	want := []string{"y=2024/city=S%C3%A3o%20Paulo", "y=2025/city=" + HiveNull, "y=" + HiveNull + "/city=a%2Fb"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("folders %q, want %q", order, want)
	}
	if got := rows[want[0]]; len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("rows of %s: %v", want[0], got)
	}
	if got := HiveDir(fields, map[string]any{"y": int64(2024), "city": "São Paulo"}); got != want[0] {
		t.Errorf("HiveDir = %q, want %q", got, want[0])
	}
	if got := HiveDir(fields, map[string]any{"y": int64(2025)}); got != want[1] {
		t.Errorf("HiveDir of a NULL = %q, want %q", got, want[1])
	}
}
