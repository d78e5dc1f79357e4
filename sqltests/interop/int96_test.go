package interop

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/writer"
)

// TestInt96Range: carquet writes INT96 timestamps across DuckDB's whole
// TIMESTAMP range — before the Julian epoch (4714 BC) too, which needs the
// day that DuckDB's wrapping arithmetic brings back — and DuckDB, carquet's
// row reader and carquet's SQL read every one back as written.
func TestInt96Range(t *testing.T) {
	const minMicros, maxMicros = -9223372022400000000, 9223372036854775806 // DuckDB's TIMESTAMP range
	us := []int64{minMicros, minMicros + 1, -210866803200000001, -210866803200000000, -1, 0, 1, maxMicros - 1}
	rng := rand.New(rand.NewPCG(96, 1))
	for range 500 {
		us = append(us, minMicros+int64(rng.Uint64N(uint64(maxMicros-minMicros))))
	}
	sch, err := writer.NewSchema(writer.Int64("us").Required(), writer.Int96("t").Required())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "int96_range.parquet")
	w, err := writer.Create(path, sch)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range us {
		if err := w.WriteRow(x, time.UnixMicro(x).UTC()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	q := fmt.Sprintf("SELECT us, epoch_us(t) AS t_us, t FROM read_parquet('%s') ORDER BY us", path)
	db := openDuckDB(t)
	car, err := driver.OpenDB(driver.Config{Path: filepath.Dir(path)})
	if err != nil {
		t.Fatal(err)
	}
	defer car.Close()
	duck, err := peers.ReadDuckDB(db, q)
	if err != nil {
		t.Fatal(err)
	}
	carSQL, err := peers.ReadDuckDB(car, q)
	if err != nil {
		t.Fatal(err)
	}
	for name, tbl := range map[string]*peers.Table{"duckdb": duck, "carquet SQL": carSQL} {
		if len(tbl.Rows) != len(us) {
			t.Fatalf("%s: %d rows, wrote %d", name, len(tbl.Rows), len(us))
		}
		for _, r := range tbl.Rows {
			if r[0] != r[1] {
				t.Errorf("%s: wrote %s µs, read %s (%s)", name, r[0], r[1], r[2])
			}
		}
	}
	compareTables(t, "duckdb", duck, "carquet SQL", carSQL, nil)
	rows, err := peers.ReadCarquet(path)
	if err != nil {
		t.Fatal(err)
	}
	own, err := peers.ReadDuckDB(db, fmt.Sprintf("SELECT * FROM read_parquet('%s')", path))
	if err != nil {
		t.Fatal(err)
	}
	compareTables(t, "duckdb", own, "carquet", rows, nil)
}
