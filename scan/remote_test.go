package scan

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/internal/fakes3"
	_ "github.com/carquet-go/carquet/objstore/s3"
)

// A Delta table in a bucket — commits, a checkpoint with sidecars,
// deletion vectors in files — reads as the same table does on disk.
func TestRemoteDelta(t *testing.T) {
	for _, cp := range []string{"", deltatest.Classic, deltatest.MultiPart, deltatest.V2JSON, deltatest.V2Parquet} {
		t.Run("checkpoint="+cp, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "dv")
			tb := dvFiles(t, root, 6)
			if cp != "" {
				tb.Checkpoint(cp, 2)
			}
			srv := fakes3.Start(t, "lake")
			srv.PutDir(t, "lake", "tables/dv/", root, "")
			local, err := Open(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			remote, err := Open("s3://lake/tables/dv", Options{Store: srv.Options()})
			if err != nil {
				t.Fatal(err)
			}
			defer remote.Close()
			if remote.Snapshot() == nil {
				t.Fatal("the bucket's table is not read as a Delta table")
			}
			for _, req := range []Request{
				{Columns: []string{"id", "x"}},
				{Columns: []string{"id"}, Filter: Compare{Column: "id", Op: Ge, Value: int64(3990)}},
			} {
				want, _ := scanIDs(t, local, req)
				got, _ := scanIDs(t, remote, req)
				if !slices.Equal(got, want) || len(want) == 0 {
					t.Fatalf("%+v: %d ids from the bucket, %d from disk", req, len(got), len(want))
				}
			}
			n, err := remote.NumRows()
			if err != nil || n != 6*999 {
				t.Fatalf("NumRows %d %v", n, err)
			}
		})
	}
}
