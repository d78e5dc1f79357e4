package sqlplan

import (
	"fmt"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
)

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
