package s3_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/fakes3"
	"github.com/carquet-go/carquet/objstore"
	_ "github.com/carquet-go/carquet/objstore/s3"
)

func open(t *testing.T, srv *fakes3.Server, bucket string) objstore.Store {
	t.Helper()
	st, _, err := objstore.Resolve(context.Background(), "s3://"+bucket+"/", srv.Options())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func write(t *testing.T, st objstore.Store, key string, data []byte, ifAbsent bool) error {
	t.Helper()
	up, err := st.Create(context.Background(), key, ifAbsent)
	if err != nil {
		t.Fatal(err)
	}
	// Written in odd pieces, as the Parquet writer does.
	for off := 0; off < len(data); {
		n := min(len(data)-off, 100_003)
		if _, err := up.Write(data[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	return up.Commit()
}

func TestStoreRoundTrip(t *testing.T) {
	srv := fakes3.Start(t, "bkt")
	st := open(t, srv, "bkt")
	ctx := context.Background()
	small := randomBytes(1000, 1)
	large := randomBytes(20<<20+12345, 2) // three parts of a multipart upload
	if err := write(t, st, "t/a.parquet", small, false); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	if err := write(t, st, "t/b.parquet", large, false); err != nil {
		t.Fatal(err)
	}
	if srv.Puts.Load() < 4 { // create, 3 parts, complete
		t.Errorf("a 20 MiB object took %d PUT/POST requests; want a multipart upload", srv.Puts.Load())
	}
	ents, err := st.List(ctx, "t/")
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 2 || ents[0].Key != "t/a.parquet" || ents[0].Size != 1000 || ents[1].Size != int64(len(large)) || ents[0].ETag == "" {
		t.Fatalf("list: %+v", ents)
	}
	e, err := st.Stat(ctx, "t/b.parquet")
	if err != nil || e.Size != int64(len(large)) || e.ETag != ents[1].ETag {
		t.Fatalf("stat: %+v %v", e, err)
	}
	if _, err := st.Stat(ctx, "t/none.parquet"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("stat of a missing key: %v", err)
	}
	rc, err := st.ReadRange(ctx, "t/b.parquet", 10<<20, 100, e.ETag)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, large[10<<20:10<<20+100]) {
		t.Fatal("ranged read differs")
	}
	if _, err := st.ReadRange(ctx, "t/b.parquet", 0, 10, `"stale"`); !errors.Is(err, objstore.ErrChanged) {
		t.Fatalf("read with a stale ETag: %v", err)
	}
	// A conditional create fails on a taken key and leaves it alone.
	if err := write(t, st, "t/a.parquet", []byte("other"), true); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("conditional create over an object: %v", err)
	}
	if e, _ := st.Stat(ctx, "t/a.parquet"); e.Size != 1000 {
		t.Fatalf("the object was replaced: %+v", e)
	}
	if err := write(t, st, "t/c.parquet", []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	// An aborted upload leaves nothing.
	up, _ := st.Create(ctx, "t/d.parquet", false)
	up.Write(large)
	if err := up.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Stat(ctx, "t/d.parquet"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("aborted upload: %v", err)
	}
	if err := st.Delete(ctx, "t/c.parquet"); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, "t/c.parquet"); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
	if got := srv.Keys(t, "bkt", ""); len(got) != 2 {
		t.Fatalf("keys left: %v", got)
	}
}

// TestObjectReads reads an object through objstore.Object: prefetched
// ranges coalesce into few requests, the tail is cached by ETag, and
// faults are retried.
func TestObjectReads(t *testing.T) {
	srv := fakes3.Start(t, "bkt")
	st := open(t, srv, "bkt")
	ctx := context.Background()
	data := randomBytes(3<<20, 3)
	srv.Put(t, "bkt", "f.bin", data)
	ents, err := st.List(ctx, "f.bin")
	if err != nil || len(ents) != 1 {
		t.Fatal(ents, err)
	}
	url := "s3://bkt/f.bin"
	check := func(o *objstore.Object, off, n int) {
		t.Helper()
		fakes3.ReadBack(t, o, data, off, n)
	}

	// Ten small ranges close together are fetched as one.
	srv.Reset()
	o := objstore.Open(ctx, st, url, ents[0])
	var rs []objstore.Range
	for i := 0; i < 10; i++ {
		rs = append(rs, objstore.Range{Off: int64(i) * 100_000, N: 50_000})
	}
	o.Prefetch(ctx, rs)
	for _, r := range rs {
		check(o, int(r.Off), int(r.N))
	}
	if n := srv.Gets.Load(); n != 1 {
		t.Errorf("10 nearby ranges took %d GETs, want 1 (coalesced)", n)
	}
	o.Close()

	// The tail, read once, is cached by ETag for the next reader.
	srv.Reset()
	o = objstore.Open(ctx, st, url, ents[0])
	check(o, len(data)-65536, 65536)
	o2 := objstore.Open(ctx, st, url, ents[0])
	check(o2, len(data)-1000, 992)
	if n := srv.Gets.Load(); n != 1 {
		t.Errorf("two tail reads took %d GETs, want 1", n)
	}

	// Faults: a 503 (the SDK retries), a body cut short and a reset
	// connection (the Object retries): the bytes still come right.
	for _, f := range []fakes3.Fault{
		{Method: http.MethodGet, Status: 503, Count: 2},
		{Method: http.MethodGet, Truncate: 1000, Count: 2},
		{Method: http.MethodGet, Reset: true, Count: 2},
		{Method: http.MethodGet, Delay: 50 * time.Millisecond, Count: 3},
	} {
		srv.Reset()
		srv.Inject(f)
		o := objstore.Open(ctx, st, url, ents[0])
		check(o, 12345, 200_000)
		o.Prefetch(ctx, []objstore.Range{{Off: 1 << 20, N: 1 << 20}})
		check(o, 1<<20, 1<<20)
	}

	// A fault that does not pass is an error naming the object and range.
	srv.Reset()
	srv.Inject(fakes3.Fault{Method: http.MethodGet, Status: 503})
	opts := srv.Options()
	opts["max_attempts"] = "2"
	impatient, _, err := objstore.Resolve(ctx, "s3://bkt/", opts)
	if err != nil {
		t.Fatal(err)
	}
	o = objstore.Open(ctx, impatient, url, ents[0])
	_, err = o.ReadAt(make([]byte, 10), 5)
	if got := srv.Gets.Load(); got != 2 {
		t.Errorf("a persistent 503 was asked %d times, want 2 (max_attempts)", got)
	}
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("s3://bkt/f.bin: bytes 5-14")) {
		t.Fatalf("persistent 503: %v", err)
	}

	// A cancelled context stops the reads.
	srv.Reset()
	srv.Inject(fakes3.Fault{Method: http.MethodGet, Delay: 2 * time.Second})
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	o = objstore.Open(cctx, st, url, ents[0])
	start := time.Now()
	if _, err := o.ReadAt(make([]byte, 10), 100); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled read: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("a cancelled read took %v", d)
	}
}

func TestCoalesce(t *testing.T) {
	got := objstore.Coalesce([]objstore.Range{{Off: 100, N: 10}, {Off: 0, N: 10}, {Off: 15, N: 5}, {Off: 5, N: 2}, {Off: 1000, N: 0}}, 10, 1000)
	want := []objstore.Range{{Off: 0, N: 20}, {Off: 100, N: 10}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %v, want %v", got, want)
	}
	got = objstore.Coalesce([]objstore.Range{{Off: 0, N: 25}}, 0, 10)
	if len(got) != 3 || got[0].N+got[1].N+got[2].N != 25 || got[2].Off+got[2].N != 25 {
		t.Fatalf("split: %v", got)
	}
}

// TestCreateIfMatch: a conditional replacement succeeds while the object
// has the ETag read, and fails with ErrChanged, leaving the object as it
// is, once another write replaced it or it is gone.
func TestCreateIfMatch(t *testing.T) {
	srv := fakes3.Start(t, "bkt")
	st := open(t, srv, "bkt")
	ctx := context.Background()
	put := func(key, etag string, data []byte) error {
		up, err := objstore.CreateIfMatch(ctx, st, key, etag)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := up.Write(data); err != nil {
			t.Fatal(err)
		}
		return up.Commit()
	}
	if err := write(t, st, "k.parquet", []byte("first"), false); err != nil {
		t.Fatal(err)
	}
	first, err := st.Stat(ctx, "k.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := put("k.parquet", first.ETag, []byte("second")); err != nil {
		t.Fatalf("replacing with the ETag read: %v", err)
	}
	// The ETag read first is stale now.
	if err := put("k.parquet", first.ETag, []byte("third")); !errors.Is(err, objstore.ErrChanged) {
		t.Fatalf("replacing with a stale ETag: %v, want ErrChanged", err)
	}
	rc, err := st.ReadRange(ctx, "k.parquet", 0, 6, "")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if string(got) != "second" {
		t.Fatalf("after a refused replacement: %q", got)
	}
	if err := put("gone.parquet", first.ETag, []byte("x")); !errors.Is(err, objstore.ErrChanged) {
		t.Fatalf("replacing a missing object: %v, want ErrChanged", err)
	}
	if _, err := objstore.CreateIfMatch(ctx, objstore.Dir(t.TempDir()), "k", "e"); err == nil {
		t.Fatal("a store without conditional replacement accepted one")
	}
}
