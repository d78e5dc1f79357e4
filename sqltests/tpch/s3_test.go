package tpch

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/fakes3"
	_ "github.com/carquet-go/carquet/objstore/s3"
)

// TestQueriesS3 runs the 22 queries on tables in an S3 bucket (an S3
// server on loopback holding each writer's files) and requires DuckDB's
// answers over the same files on disk. It logs, per query, the requests
// and bytes the server counted and the time next to the local files'.
func TestQueriesS3(t *testing.T) {
	d := dataset(t)
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	srv := fakes3.Start(t, "tpch")
	for _, w := range Writers {
		t.Run(w+"-files", func(t *testing.T) {
			dir := d.Path(w)
			var total int64
			err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() || filepath.Ext(p) != ".parquet" {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				srv.Put(t, "tpch", w+"/"+filepath.ToSlash(rel), b)
				total += int64(len(b))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			remote, err := sql.Open("carquet", "s3://tpch/"+w+"/?"+srv.Query()+"&mode=ro&threads=2")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { remote.Close() })
			local, duck := openBoth(t, dir)
			t.Logf("%s's files: %d bytes in the bucket", w, total)
			for _, q := range qs {
				t.Run(q.Name, func(t *testing.T) {
					want, err := Run(context.Background(), duck, q.SQL)
					if err != nil {
						t.Fatalf("DuckDB: %v", err)
					}
					start := time.Now()
					if _, err := Run(context.Background(), local, q.SQL); err != nil {
						t.Fatalf("carquet, local files: %v", err)
					}
					localTime := time.Since(start)
					srv.Reset()
					start = time.Now()
					got, err := Run(context.Background(), remote, q.SQL)
					if err != nil {
						t.Fatalf("carquet on s3: %v", err)
					}
					remoteTime := time.Since(start)
					if err := Compare(q, got, want); err != nil {
						t.Fatal(err)
					}
					t.Logf("%s: equal; %d GET %d LIST %d HEAD, %d bytes fetched (%.1f%% of the bucket); local %v, s3 %v",
						q.Name, srv.Gets.Load(), srv.Lists.Load(), srv.Heads.Load(), srv.BytesOut.Load(),
						100*float64(srv.BytesOut.Load())/float64(total), localTime.Round(time.Millisecond), remoteTime.Round(time.Millisecond))
				})
			}
		})
	}
}
