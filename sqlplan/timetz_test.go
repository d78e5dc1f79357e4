package sqlplan

import (
	"fmt"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
)

// TestTimeTZKey: the key of a TIMETZ orders values by the UTC time, then
// the larger offset first (DuckDB's order), and gives back its parts.
func TestTimeTZKey(t *testing.T) {
	type tz struct{ us, off int64 }
	ordered := []tz{
		{0, maxTZOffset}, {12 * 3600e6, 3600}, {11 * 3600e6, 0}, {10 * 3600e6, -3600},
		{11*3600e6 + 1, 0}, {microsPerDay, 0}, {microsPerDay, -maxTZOffset},
	}
	for i, v := range ordered {
		k := timetzKey(v.us, v.off)
		if us, off := timetzParts(k); us != v.us || off != v.off {
			t.Errorf("%v: parts %d, %d", v, us, off)
		}
		if i > 0 && timetzKey(ordered[i-1].us, ordered[i-1].off) >= k {
			t.Errorf("%v does not order after %v", v, ordered[i-1])
		}
	}
}

// TestTimeTZParquet: a TIMETZ column is a TIME(MICROS, isAdjustedToUTC)
// column holding the UTC time of day, as DuckDB's COPY writes it, and
// such a column reads back as TIMETZ with the offset +00 (as DuckDB reads
// it).
func TestTimeTZParquet(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE tz (t TIMETZ)")
	exec(t, e, "INSERT INTO tz VALUES ('00:30:00+02'), ('23:30:00-02'), ('12:00:00.5+05:30'), (NULL)")
	path, _, _ := e.tablePath("tz")
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	lt := f.Schema.Root.Children[0].Logical
	if lt == nil || lt.Time == nil || !lt.Time.IsAdjustedToUTC || lt.Time.Unit.Micros == nil {
		t.Errorf("logical type %+v", lt)
	}
	f.Close()
	got := queryAll(t, e, "SELECT typeof(t), t::VARCHAR FROM tz ORDER BY t NULLS LAST")
	const want = "[[TIME WITH TIME ZONE 01:30:00+00] [TIME WITH TIME ZONE 06:30:00.5+00] [TIME WITH TIME ZONE 22:30:00+00] [TIME WITH TIME ZONE <nil>]]"
	if fmt.Sprint(got) != want {
		t.Errorf("read back: %v", got)
	}
}
