// Package fakes3 starts an S3 protocol server on loopback for tests: the
// in-memory server of github.com/johannesboyne/gofakes3 behind a handler
// that counts requests and bytes, and injects faults when asked (slow
// responses, 503s, bodies cut short, connections reset).
package fakes3

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Server is a running fake S3.
type Server struct {
	URL     string
	backend *s3mem.Backend
	// condMu makes a conditional write (If-None-Match: *) a check and a
	// put at once, as S3 does: gofakes3 checks the header of a single
	// PUT itself (under its backend's lock) but ignores it on
	// CompleteMultipartUpload, so the check here, under one lock for all
	// conditional writes, covers both (sqltests/deltalake's
	// TestConditionalCreateRace fails without it).
	condMu sync.Mutex

	// Counters over every request since the last Reset.
	Gets, Puts, Lists, Heads, Others atomic.Int64
	// BytesOut counts the body bytes of GET responses (of objects, not
	// listings).
	BytesOut atomic.Int64
	// inFlight counts the requests being answered (Settle).
	inFlight atomic.Int64

	// latency delays every answer (nanoseconds), as a store across a
	// network would.
	latency atomic.Int64

	mu     sync.Mutex
	faults []Fault
	log    []string
}

// Fault describes requests to spoil: those whose method and path match
// (empty matches all), Count times (0: until cleared).
type Fault struct {
	Method, PathContains string
	// Status answers with this code (e.g. 503) instead of serving.
	Status int
	// Truncate sends only this many bytes of the body, then closes the
	// connection.
	Truncate int
	// Reset closes the connection without an answer.
	Reset bool
	// Served, with Reset, serves the request before closing the
	// connection: a write takes effect and its answer is lost.
	Served bool
	// Delay waits this long before serving.
	Delay time.Duration
	Count int
}

// Start starts a server with the given buckets; it stops with the test.
func Start(t testing.TB, buckets ...string) *Server {
	t.Helper()
	s := &Server{backend: s3mem.New()}
	for _, b := range buckets {
		if err := s.backend.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	faker := gofakes3.New(s.backend, gofakes3.WithLogger(gofakes3.DiscardLog()))
	inner := faker.Server()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		s.count(r)
		if d := s.latency.Load(); d > 0 {
			time.Sleep(time.Duration(d))
		}
		if f, ok := s.fault(r); ok {
			if f.Delay > 0 {
				time.Sleep(f.Delay)
			}
			switch {
			case f.Reset:
				if f.Served {
					s.serve(inner, httptest.NewRecorder(), r)
				}
				hijackClose(w)
				return
			case f.Status != 0:
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(f.Status)
				fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>injected %d</Message></Error>`, f.Status)
				return
			case f.Truncate > 0:
				rec := httptest.NewRecorder()
				inner.ServeHTTP(rec, r)
				body := rec.Body.Bytes()
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.Header().Set("Content-Length", fmt.Sprint(len(body)))
				w.WriteHeader(rec.Code)
				w.Write(body[:min(f.Truncate, len(body))])
				hijackClose(w)
				return
			}
		}
		if r.Method == http.MethodGet && !isList(r) {
			w = &countingWriter{ResponseWriter: w, n: &s.BytesOut}
		}
		s.serve(inner, w, r)
	}))
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// serve answers a request with gofakes3, conditional writes checked and
// made under condMu.
func (s *Server) serve(inner http.Handler, w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("If-None-Match") == "*" && (r.Method == http.MethodPut || r.Method == http.MethodPost) {
		s.condMu.Lock()
		defer s.condMu.Unlock()
		bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if _, err := s.backend.HeadObject(bucket, key); err == nil {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusPreconditionFailed)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>`)
			return
		}
	}
	inner.ServeHTTP(w, r)
}

// Options are the objstore options that reach this server.
func (s *Server) Options() map[string]string {
	return map[string]string{"endpoint": s.URL, "region": "us-east-1", "access_key_id": "test", "secret_access_key": "test"}
}

// Query is Options as a URL query ("endpoint=...&...").
func (s *Server) Query() string {
	return "endpoint=" + s.URL + "&region=us-east-1&access_key_id=test&secret_access_key=test"
}

// Put stores an object directly (no request counted).
func (s *Server) Put(t testing.TB, bucket, key string, data []byte) {
	t.Helper()
	if _, err := s.backend.PutObject(bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		t.Fatal(err)
	}
}

// PutDir stores every file below dir whose name ends with ext (all of
// them for "") under prefix, keyed by its slash-separated path below dir,
// and returns the bytes stored (no request counted).
func (s *Server) PutDir(t testing.TB, bucket, prefix, dir, ext string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ext) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		s.Put(t, bucket, prefix+filepath.ToSlash(rel), b)
		total += int64(len(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// Keys lists the keys of a bucket under prefix (no request counted).
func (s *Server) Keys(t testing.TB, bucket, prefix string) []string {
	t.Helper()
	res, err := s.backend.ListBucket(bucket, &gofakes3.Prefix{Prefix: prefix, HasPrefix: prefix != ""}, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range res.Contents {
		out = append(out, c.Key)
	}
	return out
}

// SetLatency delays every answer by d from now on (first-byte latency of
// a store across a network; S3 in a region answers in 10-30 ms).
func (s *Server) SetLatency(d time.Duration) { s.latency.Store(int64(d)) }

// Settle waits (up to ten seconds) until no request is being answered:
// a reader's read-ahead may still be receiving a response after the
// query that asked for it returned, and its bytes belong to that query.
func (s *Server) Settle() {
	for deadline := time.Now().Add(10 * time.Second); s.inFlight.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// Reset zeroes the counters and clears the faults.
func (s *Server) Reset() {
	for _, c := range []*atomic.Int64{&s.Gets, &s.Puts, &s.Lists, &s.Heads, &s.Others, &s.BytesOut} {
		c.Store(0)
	}
	s.mu.Lock()
	s.faults = nil
	s.log = nil
	s.mu.Unlock()
}

// Inject adds a fault.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	s.faults = append(s.faults, f)
	s.mu.Unlock()
}

// Log returns "METHOD path?query" of each request since the last Reset.
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func (s *Server) count(r *http.Request) {
	switch {
	case isList(r):
		s.Lists.Add(1)
	case r.Method == http.MethodGet:
		s.Gets.Add(1)
	case r.Method == http.MethodPut || r.Method == http.MethodPost:
		s.Puts.Add(1)
	case r.Method == http.MethodHead:
		s.Heads.Add(1)
	default:
		s.Others.Add(1)
	}
	s.mu.Lock()
	s.log = append(s.log, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery+" "+r.Header.Get("Range"))
	s.mu.Unlock()
}

// isList reports whether a request lists a bucket (a GET of the bucket
// itself, path-style).
func isList(r *http.Request) bool {
	return r.Method == http.MethodGet && !strings.Contains(strings.Trim(r.URL.Path, "/"), "/")
}

func (s *Server) fault(r *http.Request) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.faults {
		f := &s.faults[i]
		if f.Method != "" && f.Method != r.Method || f.PathContains != "" && !strings.Contains(r.URL.Path, f.PathContains) {
			continue
		}
		if f.Count < 0 {
			continue
		}
		got := *f
		if f.Count > 0 {
			f.Count--
			if f.Count == 0 {
				f.Count = -1 // spent
			}
		}
		return got, true
	}
	return Fault{}, false
}

func hijackClose(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("fakes3: the response cannot be hijacked")
	}
	c, _, err := hj.Hijack()
	if err == nil {
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetLinger(0) // a reset, not a clean close
		}
		c.Close()
	}
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// ReadBack reads n bytes at off from r and fails the test unless they
// are data's.
func ReadBack(t testing.TB, r io.ReaderAt, data []byte, off, n int) {
	t.Helper()
	p := make([]byte, n)
	if _, err := r.ReadAt(p, int64(off)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p, data[off:off+n]) {
		t.Fatalf("bytes %d+%d differ", off, n)
	}
}
