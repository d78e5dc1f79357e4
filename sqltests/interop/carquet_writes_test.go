package interop

import (
	"fmt"
	"testing"

	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// TestCarquetWrites writes every table × codec × encoding × page version
// with carquet and reads each file with carquet and the three peers.
func TestCarquetWrites(t *testing.T) {
	db := openDuckDB(t)
	readers := peerReaders(db)
	for _, tbl := range allTables() {
		for _, c := range codecs {
			for _, enc := range encodings {
				for _, pv := range []int{1, 2} {
					name := cellName(tbl.Name, c.name, enc, fmt.Sprintf("v%d", pv))
					t.Run(name, func(t *testing.T) {
						path := tempPath(t, name)
						sch := writeCarquet(t, path, tbl, c, enc, pv)
						want := expected(t, tbl, sch)
						got, err := peers.ReadCarquet(path)
						if err != nil {
							t.Fatalf("carquet reads its own file: %v", err)
						}
						compareTables(t, "written", want, "carquet", got, nil)
						for _, r := range readers {
							t.Run(r.name, func(t *testing.T) {
								k := knownRead(r.name, tbl.Name, c.name, enc, pv)
								got, err := r.read(path, k.exclude)
								if err != nil {
									if k.err != "" && contains(err.Error(), k.err) {
										t.Skipf("%s cannot read this cell: %s (%v)", r.name, k.reason, firstLine(err))
									}
									t.Fatalf("%s: %v", r.name, firstLine(err))
								}
								if k.err != "" {
									t.Logf("%s now reads this cell (recorded: %s): update known.go", r.name, k.reason)
								}
								skip := map[string]string{}
								for c, why := range k.cols {
									skip[c] = why
								}
								for c, why := range k.exclude {
									skip[c] = "left out of the read: " + why
								}
								compareTables(t, "written", truncateMicros(t, want, k.micros), r.name, got, skip)
							})
						}
					})
				}
			}
		}
	}
}
