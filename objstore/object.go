package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Object reads one object of a store, at the size and ETag it had when it
// was listed: an io.ReaderAt for the Parquet reader.
//
// Every read is a ranged GET, retried (with backoff) when the body comes
// back short or the connection drops; the store's client retries what it
// knows to retry (5xx, throttling) before that. Ranges announced with
// Prefetch are fetched ahead, coalesced and in parallel, and reads inside
// them wait for those bytes instead of asking again.
type Object struct {
	st   Store
	url  string
	key  string
	size int64
	etag string
	ctx  context.Context

	mu      sync.Mutex
	pending []*fetch // prefetched ranges, by offset
	closed  bool

	// Counters of what this object cost, for tests and EXPLAIN.
	Requests atomic.Int64
	Bytes    atomic.Int64
}

// fetch is one range being read ahead. It stays after its bytes are
// read (two readers of one chunk, a filter's column read again for the
// output) until the budget needs its room.
type fetch struct {
	obj    *Object
	off, n int64
	data   []byte
	err    error
	done   chan struct{}
}

// Open returns the reader of the object e describes, at url (for error
// messages and the tail cache). ctx bounds every request it makes.
func Open(ctx context.Context, st Store, url string, e Entry) *Object {
	return &Object{st: st, url: url, key: e.Key, size: e.Size, etag: e.ETag, ctx: ctx}
}

// Size is the object's length.
func (o *Object) Size() int64 { return o.size }

// URL is the object's URL.
func (o *Object) URL() string { return o.url }

// Close drops the ranges read ahead and not used.
func (o *Object) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, f := range o.pending {
		budget.forget(f)
	}
	o.pending = nil
	o.closed = true
	return nil
}

// ReadAt reads len(p) bytes at off: from the tail cache, from a range read
// ahead, or by a ranged GET.
func (o *Object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > o.size {
		return 0, fmt.Errorf("%s: read at %d of an object of %d bytes", o.url, off, o.size)
	}
	want := p
	var short error
	if int64(len(p)) > o.size-off {
		want = p[:o.size-off]
		short = io.EOF
	}
	if len(want) == 0 {
		return 0, short
	}
	if o.fromTail(want, off) {
		return len(want), short
	}
	if ok, err := o.fromPending(want, off); ok || err != nil {
		if err != nil {
			return 0, err
		}
		return len(want), short
	}
	if err := o.get(o.ctx, want, off); err != nil {
		return 0, err
	}
	o.toTail(want, off)
	return len(want), short
}

// maxAttempts bounds the reads of one range whose body is cut short.
const maxAttempts = 5

// requestTimeout bounds one attempt at a range, body included (a
// variable for tests).
var requestTimeout = 2 * time.Minute

// get fills p with the bytes at off, retrying a body cut short or a
// connection reset, with backoff.
func (o *Object) get(ctx context.Context, p []byte, off int64) error {
	var err error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(1<<attempt) * 20 * time.Millisecond):
			case <-ctx.Done():
				return o.wrap(off, int64(len(p)), ctx.Err())
			}
		}
		var body bool
		body, err = o.getOnce(ctx, p, off)
		// The store's client retried the request itself; what is left to
		// retry here is a body that broke off, or an attempt that timed
		// out while the query still runs.
		timedOut := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
		if err == nil || ctx.Err() != nil || !timedOut && (!body || !retryable(err)) {
			break
		}
	}
	if err != nil {
		return o.wrap(off, int64(len(p)), err)
	}
	return nil
}

// getOnce makes one request for p; body says whether the error came
// while reading the response's body.
func (o *Object) getOnce(ctx context.Context, p []byte, off int64) (body bool, err error) {
	o.Requests.Add(1)
	// A server that stops answering fails the attempt, never hangs the
	// query: its context may have no deadline of its own.
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	rc, err := o.st.ReadRange(ctx, o.key, off, int64(len(p)), o.etag)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	n, err := io.ReadFull(rc, p)
	o.Bytes.Add(int64(n))
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return true, err
}

// retryable says whether a failed read may succeed when asked again: not
// for a missing or changed object, nor a cancelled query.
func retryable(err error) bool {
	return !(IsNotExist(err) || errors.Is(err, ErrChanged) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

func (o *Object) wrap(off, n int64, err error) error {
	return fmt.Errorf("%s: bytes %d-%d: %w", o.url, off, off+n-1, err)
}

// Range is a byte range of an object.
type Range struct{ Off, N int64 }

// Coalescing: ranges closer than gapLimit are fetched as one (the bytes
// between cost less than another round trip), and a fetch is at most
// partLimit bytes, so that a large column chunk comes in parallel parts.
const (
	gapLimit  = 512 << 10
	partLimit = 8 << 20
)

// Prefetch starts fetching ranges, coalesced, in parallel: the column
// chunks (or pages) a scan is about to read. Reads inside them wait for
// the fetch. When the read-ahead budget is spent, ranges are left to be
// read when asked for. ctx (the query's) cancels the fetches; a read
// that finds its fetch cancelled asks the store itself.
func (o *Object) Prefetch(ctx context.Context, ranges []Range) {
	for _, r := range Coalesce(ranges, gapLimit, partLimit) {
		if r.Off < 0 || r.N <= 0 || r.Off+r.N > o.size || o.covered(r) || o.tailCovers(r) {
			continue
		}
		f := &fetch{obj: o, off: r.Off, n: r.N, done: make(chan struct{})}
		if !budget.take(f) {
			return
		}
		o.mu.Lock()
		if o.closed {
			o.mu.Unlock()
			budget.forget(f)
			return
		}
		i := sort.Search(len(o.pending), func(i int) bool { return o.pending[i].off >= f.off })
		o.pending = append(o.pending, nil)
		copy(o.pending[i+1:], o.pending[i:])
		o.pending[i] = f
		o.mu.Unlock()
		go o.run(ctx, f)
	}
}

func (o *Object) run(ctx context.Context, f *fetch) {
	select {
	case fetchers <- struct{}{}:
	case <-ctx.Done():
		f.err = ctx.Err()
		close(f.done)
		return
	}
	defer func() { <-fetchers }()
	buf := make([]byte, f.n)
	if err := o.get(ctx, buf, f.off); err != nil {
		f.err = err
	} else {
		f.data = buf
	}
	close(f.done)
}

// ReadAhead starts fetching n bytes at off (parquet/file's
// ReadAheader: the page indexes of a file, when the first is read).
func (o *Object) ReadAhead(off, n int64) {
	o.Prefetch(o.ctx, []Range{{Off: off, N: n}})
}

// covered reports whether r lies inside a range already being fetched.
func (o *Object) covered(r Range) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.find(r.Off, r.N) != nil
}

func (o *Object) find(off, n int64) *fetch {
	for _, f := range o.pending {
		if f.off <= off && off+n <= f.off+f.n {
			return f
		}
	}
	return nil
}

// fromPending copies p from a range read ahead, if one covers it. A
// fetch that failed is forgotten and the read goes to the store again.
func (o *Object) fromPending(p []byte, off int64) (bool, error) {
	o.mu.Lock()
	f := o.find(off, int64(len(p)))
	o.mu.Unlock()
	if f == nil {
		return false, nil
	}
	<-f.done
	if f.err != nil {
		o.drop(f)
		return false, nil
	}
	copy(p, f.data[off-f.off:])
	budget.touch(f)
	return true, nil
}

// drop forgets a range read ahead: its fetch failed, or the budget needs
// its room.
func (o *Object) drop(f *fetch) {
	o.mu.Lock()
	found := false
	for i, g := range o.pending {
		if g == f {
			o.pending = append(o.pending[:i], o.pending[i+1:]...)
			found = true
			break
		}
	}
	o.mu.Unlock()
	if found {
		budget.forget(f)
	}
}

// Coalesce sorts ranges, merges those less than gap apart and cuts the
// result into pieces of at most part bytes.
func Coalesce(ranges []Range, gap, part int64) []Range {
	rs := append([]Range(nil), ranges...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Off < rs[j].Off })
	var merged []Range
	for _, r := range rs {
		if r.N <= 0 {
			continue
		}
		if k := len(merged) - 1; k >= 0 && r.Off <= merged[k].Off+merged[k].N+gap {
			if end := r.Off + r.N; end > merged[k].Off+merged[k].N {
				merged[k].N = end - merged[k].Off
			}
			continue
		}
		merged = append(merged, r)
	}
	var out []Range
	for _, r := range merged {
		pieces := (r.N + part - 1) / part
		for i := int64(0); i < pieces; i++ {
			from := r.Off + r.N*i/pieces
			to := r.Off + r.N*(i+1)/pieces
			out = append(out, Range{Off: from, N: to - from})
		}
	}
	return out
}

// fetchers bounds the requests in flight for read-ahead, over all
// objects.
var fetchers = make(chan struct{}, 16)

// budget bounds the bytes read ahead and kept, over all objects. When it
// is spent, the finished fetches read least recently are evicted first;
// fetches still running are never evicted, so a new range may have to
// wait its turn and be read when asked for instead.
var budget = &byteBudget{limit: 256 << 20}

type byteBudget struct {
	mu    sync.Mutex
	used  int64
	limit int64
	held  []*fetch // least recently used first
}

// touch marks a fetch as just read.
func (b *byteBudget) touch(f *fetch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, g := range b.held {
		if g == f {
			copy(b.held[i:], b.held[i+1:])
			b.held[len(b.held)-1] = f
			return
		}
	}
}

func (b *byteBudget) take(f *fetch) bool {
	b.mu.Lock()
	for b.used+f.n > b.limit {
		var victim *fetch
		for _, g := range b.held {
			select {
			case <-g.done:
				victim = g
			default:
			}
			if victim != nil {
				break
			}
		}
		if victim == nil {
			b.mu.Unlock()
			return false
		}
		b.removeLocked(victim)
		b.mu.Unlock()
		victim.obj.drop(victim) // forget is then a no-op
		b.mu.Lock()
	}
	b.used += f.n
	b.held = append(b.held, f)
	b.mu.Unlock()
	return true
}

// forget gives back a fetch's bytes (once).
func (b *byteBudget) forget(f *fetch) {
	b.mu.Lock()
	b.removeLocked(f)
	b.mu.Unlock()
}

func (b *byteBudget) removeLocked(f *fetch) {
	for i, g := range b.held {
		if g == f {
			b.held = append(b.held[:i], b.held[i+1:]...)
			b.used -= f.n
			return
		}
	}
}

// OpenURL opens the object at url for reading, its size and ETag asked
// of the store (one request).
func OpenURL(ctx context.Context, url string, options map[string]string) (*Object, error) {
	st, loc, err := Resolve(ctx, url, options)
	if err != nil {
		return nil, err
	}
	e, err := st.Stat(ctx, loc.Key)
	if err != nil {
		return nil, err
	}
	return Open(ctx, st, url, e), nil
}
