package tpch

import (
	"context"
	"database/sql"
	"os"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/fakes3"
	"github.com/carquet-go/carquet/objstore"
	_ "github.com/carquet-go/carquet/objstore/s3"
)

// TestQueriesS3 runs the 22 queries on tables in an S3 bucket (an S3
// server on loopback holding each writer's files) and requires DuckDB's
// answers over the same files on disk. Each query runs cold, on a new
// database with no footer cached; the test logs the requests and bytes
// the server counted and the time next to the local files'.
// $CARQUET_S3_LATENCY (a duration, default 0) delays every answer of the
// server, as a store across a network would.
func TestQueriesS3(t *testing.T) {
	d := dataset(t)
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	srv := fakes3.Start(t, "tpch")
	if s := os.Getenv("CARQUET_S3_LATENCY"); s != "" {
		lat, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("CARQUET_S3_LATENCY=%q: %v", s, err)
		}
		srv.SetLatency(lat)
	}
	for _, w := range Writers {
		t.Run(w+"-files", func(t *testing.T) {
			dir := d.Path(w)
			total := srv.PutDir(t, "tpch", w+"/", dir, ".parquet")
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
					// Cold: a new database, no footer cached.
					objstore.ClearCache()
					remote, err := sql.Open("carquet", "s3://tpch/"+w+"/?"+srv.Query()+"&mode=ro&threads=2")
					if err != nil {
						t.Fatal(err)
					}
					defer remote.Close()
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
