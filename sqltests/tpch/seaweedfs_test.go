//go:build seaweedfs

package tpch

// The integration run against a full S3 server: SeaweedFS's S3 gateway
// (weed server -s3), started by the test. Build weed from its module
// (go install refuses it for its replace directives):
//
//	M=$(go env GOMODCACHE)/github.com/seaweedfs/seaweedfs@v0.0.0-20261109003541-7506e5f91cd6
//	go mod download github.com/seaweedfs/seaweedfs@v0.0.0-20261109003541-7506e5f91cd6
//	cp -r $M /tmp/seaweed && chmod -R u+w /tmp/seaweed && (cd /tmp/seaweed && go build -o /tmp/weed ./weed)
//	cd sqltests && CARQUET_WEED=/tmp/weed go test -tags seaweedfs -run TestSeaweedFS -v ./tpch/

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	s3sdk "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/carquet-go/carquet/objstore"
	_ "github.com/carquet-go/carquet/objstore/s3"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startSeaweedFS runs weed server with its S3 gateway on free ports and
// returns the gateway's endpoint once it answers.
func startSeaweedFS(t *testing.T) string {
	t.Helper()
	weed := os.Getenv("CARQUET_WEED")
	if weed == "" {
		var err error
		if weed, err = exec.LookPath("weed"); err != nil {
			t.Fatal("the seaweedfs tag needs the weed binary: set CARQUET_WEED (see the comment at the top of this file)")
		}
	}
	dir := t.TempDir()
	s3Port := freePort(t)
	args := []string{"server", "-dir=" + dir, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		fmt.Sprintf("-master.port=%d", freePort(t)), fmt.Sprintf("-volume.port=%d", freePort(t)),
		fmt.Sprintf("-filer.port=%d", freePort(t)), "-s3", fmt.Sprintf("-s3.port=%d", s3Port)}
	cmd := exec.Command(weed, args...)
	logf, err := os.Create(filepath.Join(dir, "weed.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		logf.Close()
	})
	endpoint := fmt.Sprintf("http://127.0.0.1:%d", s3Port)
	client := sdkClient(t, endpoint)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := client.CreateBucket(ctx, &s3sdk.CreateBucketInput{Bucket: aws.String("tpch")})
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(dir, "weed.log"))
			t.Fatalf("SeaweedFS's S3 gateway did not come up: %v\n%s", err, b)
		}
		time.Sleep(500 * time.Millisecond)
	}
	return endpoint
}

func sdkClient(t *testing.T, endpoint string) *s3sdk.Client {
	t.Helper()
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("any", "any", "")))
	if err != nil {
		t.Fatal(err)
	}
	return s3sdk.NewFromConfig(cfg, func(o *s3sdk.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.UsePathStyle = true
	})
}

// TestSeaweedFS uploads carquet's TPC-H files through objstore (multipart
// for the large ones), runs the 22 queries on them and requires DuckDB's
// answers over the files on disk; then writes tables (CREATE TABLE AS,
// INSERT) and reads them back.
func TestSeaweedFS(t *testing.T) {
	d := dataset(t)
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	endpoint := startSeaweedFS(t)
	opts := map[string]string{"endpoint": endpoint, "region": "us-east-1", "access_key_id": "any", "secret_access_key": "any"}
	query := "endpoint=" + endpoint + "&region=us-east-1&access_key_id=any&secret_access_key=any"
	dir := d.Path("carquet")
	ctx := context.Background()
	st, _, err := objstore.Resolve(ctx, "s3://tpch/", opts)
	if err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if filepath.Ext(e.Name()) != ".parquet" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		up, err := st.Create(ctx, "carquet/"+e.Name(), true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := up.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := up.Commit(); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
	}
	remote, err := sql.Open("carquet", "s3://tpch/carquet/?"+query+"&threads=2")
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	_, duck := openBoth(t, dir)
	for _, q := range qs {
		want, err := Run(ctx, duck, q.SQL)
		if err != nil {
			t.Fatalf("%s: DuckDB: %v", q.Name, err)
		}
		start := time.Now()
		got, err := Run(ctx, remote, q.SQL)
		if err != nil {
			t.Fatalf("%s: carquet on SeaweedFS: %v", q.Name, err)
		}
		if err := Compare(q, got, want); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: equal (%v)", q.Name, time.Since(start).Round(time.Millisecond))
	}
	for _, s := range []string{
		`CREATE TABLE big_orders AS SELECT o_orderkey, o_totalprice FROM orders WHERE o_totalprice > 300000`,
		`INSERT INTO big_orders SELECT o_orderkey, o_totalprice FROM orders WHERE o_totalprice BETWEEN 299000 AND 300000`,
	} {
		if _, err := remote.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	var n, want int64
	if err := remote.QueryRow(`SELECT COUNT(*) FROM big_orders`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := remote.QueryRow(`SELECT COUNT(*) FROM orders WHERE o_totalprice >= 299000`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("big_orders has %d rows, want %d", n, want)
	}
	keys, err := st.List(ctx, "carquet/big_orders/")
	if err != nil || len(keys) != 2 {
		t.Fatalf("big_orders objects: %v %v", keys, err)
	}
	t.Logf("big_orders: %d rows in %d objects: %s", n, len(keys), strings.Join([]string{keys[0].Key, keys[1].Key}, ", "))
}
