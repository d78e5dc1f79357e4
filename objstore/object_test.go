package objstore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/fakes3"
)

// counting wraps a Store, counting ranged reads; cut > 0 makes each of
// the next cut reads break off after 10 bytes, hang > 0 each of the next
// hang reads wait until its context ends.
type counting struct {
	Store
	reads atomic.Int64
	cut   atomic.Int64
	hang  atomic.Int64
}

func (c *counting) ReadRange(ctx context.Context, key string, off, n int64, etag string) (io.ReadCloser, error) {
	c.reads.Add(1)
	if c.hang.Add(-1) >= 0 {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	rc, err := c.Store.ReadRange(ctx, key, off, n, etag)
	if err != nil || c.cut.Add(-1) < 0 {
		return rc, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(rc, 10), rc}, nil
}

func fixture(t *testing.T, n int) (*counting, Entry, []byte) {
	t.Helper()
	dir := t.TempDir()
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(filepath.Join(dir, "obj"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	st := &counting{Store: Dir(dir)}
	e, err := st.Stat(context.Background(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	return st, e, data
}

func readAt(t *testing.T, o *Object, data []byte, off, n int) {
	t.Helper()
	fakes3.ReadBack(t, o, data, off, n)
}

func TestPrefetchKeepsAndEvicts(t *testing.T) {
	st, e, data := fixture(t, 4<<20)
	ctx := context.Background()
	o := Open(ctx, st, "file:///obj", e)
	defer o.Close()
	o.Prefetch(ctx, []Range{{0, 1000}, {2000, 1000}, {1 << 20, 1 << 20}})
	readAt(t, o, data, 0, 1000)
	readAt(t, o, data, 2500, 400)
	readAt(t, o, data, 1<<20+5, 1000)
	// Read again: still there.
	readAt(t, o, data, 0, 3000)
	if n := st.reads.Load(); n != 2 {
		t.Fatalf("%d reads, want 2 (two coalesced ranges)", n)
	}
	// A budget too small for a new range evicts the range read least
	// recently.
	old := budget.limit
	budget.mu.Lock()
	budget.limit = budget.used + 1<<20 - 1
	budget.mu.Unlock()
	defer func() { budget.mu.Lock(); budget.limit = old; budget.mu.Unlock() }()
	o.Prefetch(ctx, []Range{{3 << 20, 1 << 20}})
	readAt(t, o, data, 3<<20, 1<<20)
	if n := st.reads.Load(); n != 3 {
		t.Fatalf("%d reads, want 3", n)
	}
	o.mu.Lock()
	kept := len(o.pending)
	o.mu.Unlock()
	if kept != 2 {
		t.Fatalf("%d ranges kept within the budget, want 2", kept)
	}
	// The range read least recently (the first MiB) was the one evicted.
	readAt(t, o, data, 0, 3000)
	readAt(t, o, data, 1<<20, 10)
	if n := st.reads.Load(); n != 4 {
		t.Fatalf("%d reads, want 4", n)
	}
	o.Close()
	budget.mu.Lock()
	used := budget.used
	budget.mu.Unlock()
	if used != 0 {
		t.Fatalf("closing the object left %d bytes in the budget", used)
	}
}

func TestBrokenBodiesRetried(t *testing.T) {
	st, e, data := fixture(t, 100_000)
	ctx := context.Background()
	st.cut.Store(2)
	o := Open(ctx, st, "file:///obj", e)
	readAt(t, o, data, 100, 50_000)
	if n := st.reads.Load(); n != 3 {
		t.Fatalf("%d reads for two broken bodies and a whole one, want 3", n)
	}
	st.cut.Store(maxAttempts)
	_, err := o.ReadAt(make([]byte, 1000), 0)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("bodies that always break: %v", err)
	}
}

func TestTailCacheByETag(t *testing.T) {
	st, e, data := fixture(t, 200_000)
	ctx := context.Background()
	ClearCache()
	readAt(t, Open(ctx, st, "file:///obj", e), data, 200_000-65536, 65536)
	readAt(t, Open(ctx, st, "file:///obj", e), data, 200_000-100, 92)
	if n := st.reads.Load(); n != 1 {
		t.Fatalf("%d reads of one tail, want 1", n)
	}
	// Another ETag (the object replaced) is not served from the cache.
	e2 := e
	e2.ETag = "other"
	_, err := Open(ctx, st, "file:///obj", e2).ReadAt(make([]byte, 10), 100)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("read at a stale ETag: %v", err)
	}
	ClearCache()
	readAt(t, Open(ctx, st, "file:///obj", e), data, 200_000-100, 92)
	if n := st.reads.Load(); n != 3 {
		t.Fatalf("%d reads after ClearCache, want 3", n)
	}
}

func TestDirStore(t *testing.T) {
	d := Dir(t.TempDir())
	ctx := context.Background()
	up, err := d.Create(ctx, "a/b.parquet", true)
	if err != nil {
		t.Fatal(err)
	}
	up.Write([]byte("hello"))
	if ents, _ := d.List(ctx, ""); len(ents) != 0 {
		t.Fatalf("an upload in progress is listed: %v", ents)
	}
	if err := up.Commit(); err != nil {
		t.Fatal(err)
	}
	up, _ = d.Create(ctx, "a/b.parquet", true)
	up.Write([]byte("other"))
	if err := up.Commit(); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("conditional create over an object: %v", err)
	}
	ents, err := d.List(ctx, "a/")
	if err != nil || len(ents) != 1 || ents[0].Key != "a/b.parquet" || ents[0].Size != 5 {
		t.Fatalf("list: %v %v", ents, err)
	}
	if _, err := d.Stat(ctx, "../x"); err == nil {
		t.Fatal("a key outside the folder was accepted")
	}
	if err := d.Delete(ctx, "a/b.parquet"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Stat(ctx, "a/b.parquet"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestParseAndJoin(t *testing.T) {
	l, err := Parse("s3://bkt/a/b/*.parquet?region=eu-west-1&endpoint=http://h:9000")
	if err != nil || l.Bucket != "bkt" || l.Key != "a/b/*.parquet" || l.Options["region"] != "eu-west-1" || l.Options["endpoint"] != "http://h:9000" {
		t.Fatalf("%+v %v", l, err)
	}
	for in, want := range map[string]string{
		Join("s3://bkt/a", "b", "c.parquet"):   "s3://bkt/a/b/c.parquet",
		Join("s3://bkt/a/../../x"):             "s3://bkt/x",
		Join("s3://bkt/a?region=r", "t"):       "s3://bkt/a/t?region=r",
		Join("s3://bkt/", "./t/", "x.parquet"): "s3://bkt/t/x.parquet",
	} {
		if in != want {
			t.Errorf("got %q, want %q", in, want)
		}
	}
	if IsURL("/tmp/x") || IsURL("file:///tmp/x") || IsURL("C:\\x") || !IsURL("s3://b/k") {
		t.Error("IsURL")
	}
	if _, _, err := Resolve(context.Background(), "nosuch://b/k", nil); err == nil {
		t.Error("a scheme without a store was resolved")
	}
}

// A store that stops answering fails an attempt after requestTimeout; the
// read is tried again, and gives up with an error rather than hang.
func TestHungRequestsTimeOut(t *testing.T) {
	st, e, data := fixture(t, 10_000)
	old := requestTimeout
	requestTimeout = 50 * time.Millisecond
	defer func() { requestTimeout = old }()
	st.hang.Store(1)
	o := Open(context.Background(), st, "file:///obj", e)
	readAt(t, o, data, 0, 100)
	if n := st.reads.Load(); n != 2 {
		t.Fatalf("%d reads, want 2 (one hung)", n)
	}
	st.hang.Store(maxAttempts)
	start := time.Now()
	if _, err := o.ReadAt(make([]byte, 10), 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a store that never answers: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("gave up after %v", d)
	}
}
