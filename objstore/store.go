// Package objstore is where tables live when they are not local files:
// object stores such as S3, reached through one small interface (ranged
// reads with the size known, listing a prefix, creating an object that
// appears whole or not at all, conditional creation, deletion).
//
// Paths are URLs, "scheme://bucket/key". A store for a scheme is
// registered by the package that implements it (objstore/s3 for s3://),
// so a program that never imports one builds without its client; Resolve
// turns a URL into its store and key. Local folders have an
// implementation too (Dir), used where a Store is wanted for local files.
//
// Reading goes through Object, an io.ReaderAt over one object that
// retries what a network loses, fetches announced ranges ahead in
// parallel (Prefetch) and serves a file's tail from a cache keyed by the
// object's ETag, so that a footer read twice is fetched once.
package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// Entry describes one object.
type Entry struct {
	// Key is the object's key within its bucket.
	Key  string
	Size int64
	// ETag identifies the object's content: it changes when the object
	// is replaced (empty when the store has none).
	ETag    string
	ModTime time.Time
}

// Store is a bucket of objects.
type Store interface {
	// Stat describes the object at key; an error that is fs.ErrNotExist
	// when there is none.
	Stat(ctx context.Context, key string) (Entry, error)
	// List returns every object whose key starts with prefix, sorted by
	// key.
	List(ctx context.Context, prefix string) ([]Entry, error)
	// ReadRange returns n bytes of the object at key from off on. When
	// etag is set and the object no longer has it, the error is
	// ErrChanged.
	ReadRange(ctx context.Context, key string, off, n int64, etag string) (io.ReadCloser, error)
	// Create starts writing the object at key. Nothing is visible until
	// Commit returns; with ifAbsent, Commit fails with an error that is
	// fs.ErrExist when the key is taken by then.
	Create(ctx context.Context, key string, ifAbsent bool) (Upload, error)
	// Delete removes the object at key (no error if there is none).
	Delete(ctx context.Context, key string) error
}

// Upload is an object being written.
type Upload interface {
	io.Writer
	// Commit makes the object visible, whole.
	Commit() error
	// Abort discards what was written; the key is left as it was.
	Abort() error
}

// ErrChanged is returned when an object changed while it was read.
var ErrChanged = errors.New("the object changed while it was read")

// Opener makes the store of one bucket; options come from the URL's
// query and the database's settings (region, endpoint, ...).
type Opener func(ctx context.Context, bucket string, options map[string]string) (Store, error)

var registry struct {
	sync.Mutex
	openers map[string]Opener
	stores  map[string]Store
	options map[string]bool
}

// Register makes Resolve use open for URLs of scheme, which takes the
// options named (a database's DSN may give them).
func Register(scheme string, open Opener, options ...string) {
	registry.Lock()
	defer registry.Unlock()
	if registry.openers == nil {
		registry.openers = map[string]Opener{}
		registry.options = map[string]bool{}
	}
	registry.openers[scheme] = open
	for _, o := range options {
		registry.options[o] = true
	}
}

// IsOption reports whether a registered store takes an option of this
// name.
func IsOption(name string) bool {
	registry.Lock()
	defer registry.Unlock()
	return registry.options[name]
}

// IsURL reports whether p is an object store URL ("scheme://...") rather
// than a local path.
func IsURL(p string) bool {
	i := strings.Index(p, "://")
	if i <= 0 {
		return false
	}
	for _, c := range p[:i] {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return !strings.HasPrefix(p, "file://")
}

// Location is a parsed object store URL.
type Location struct {
	Scheme, Bucket, Key string
	// Options are the URL's query parameters; RawQuery the query as given.
	Options  map[string]string
	RawQuery string
}

// String is the URL without its options.
func (l Location) String() string { return l.Scheme + "://" + l.Bucket + "/" + l.Key }

// Parse splits an object store URL. The key keeps glob characters as
// they are (no unescaping of '%').
func Parse(raw string) (Location, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || !IsURL(raw) {
		return Location{}, fmt.Errorf("%q is not an object store URL", raw)
	}
	var l Location
	l.Scheme = scheme
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		vals, err := url.ParseQuery(rest[q+1:])
		if err != nil {
			return Location{}, fmt.Errorf("%s: %w", raw, err)
		}
		l.RawQuery = rest[q+1:]
		l.Options = map[string]string{}
		for k, v := range vals {
			l.Options[k] = v[len(v)-1]
		}
		rest = rest[:q]
	}
	l.Bucket, l.Key, _ = strings.Cut(rest, "/")
	if l.Bucket == "" {
		return Location{}, fmt.Errorf("%s: no bucket", raw)
	}
	return l, nil
}

// Join appends elements to a URL's key, cleaning "." and ".." out of the
// key without climbing above the bucket. The URL's query stays at the end.
func Join(base string, elem ...string) string {
	l, err := Parse(base)
	if err != nil {
		return path.Join(append([]string{base}, elem...)...)
	}
	key := path.Join(append([]string{"/" + l.Key}, elem...)...)
	out := l.Scheme + "://" + l.Bucket + "/" + strings.TrimPrefix(key, "/")
	if l.RawQuery != "" {
		out += "?" + l.RawQuery
	}
	return out
}

// Resolve returns the store of a URL's bucket and the URL's key. Stores
// are kept per scheme, bucket and options: every table of a bucket
// shares one client, and listings (see ListingTTL). options (the database's) are overridden by the
// URL's own query.
func Resolve(ctx context.Context, raw string, options map[string]string) (Store, Location, error) {
	l, err := Parse(raw)
	if err != nil {
		return nil, Location{}, err
	}
	merged := withQuery(l, options)
	l.Options = merged
	registry.Lock()
	defer registry.Unlock()
	open := registry.openers[l.Scheme]
	if open == nil {
		hint := ""
		if l.Scheme == "s3" {
			hint = ` (import _ "github.com/carquet-go/carquet/objstore/s3" to read s3:// URLs)`
		}
		return nil, Location{}, fmt.Errorf("%s: no object store is registered for %s://%s", raw, l.Scheme, hint)
	}
	id := storeID(l)
	if st, ok := registry.stores[id]; ok {
		return st, l, nil
	}
	st, err := open(ctx, l.Bucket, merged)
	if err != nil {
		return nil, Location{}, fmt.Errorf("%s: %w", raw, err)
	}
	st = cacheListings(st)
	if registry.stores == nil {
		registry.stores = map[string]Store{}
	}
	registry.stores[id] = st
	return st, l, nil
}

// WithOptions returns options with a URL's query options on top (they
// win), for the URLs of a table's files, which carry no query.
func WithOptions(raw string, options map[string]string) map[string]string {
	l, err := Parse(raw)
	if err != nil || len(l.Options) == 0 {
		return options
	}
	return withQuery(l, options)
}

func withQuery(l Location, options map[string]string) map[string]string {
	merged := make(map[string]string, len(options)+len(l.Options))
	for k, v := range options {
		merged[k] = v
	}
	for k, v := range l.Options {
		merged[k] = v
	}
	return merged
}

func storeID(l Location) string {
	keys := make([]string, 0, len(l.Options))
	for k := range l.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(l.Scheme + "://" + l.Bucket + "?")
	for _, k := range keys {
		b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(l.Options[k]) + "&")
	}
	return b.String()
}

// IsNotExist reports whether err says an object is missing.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// CreateURL starts writing the object at url (see Store.Create).
func CreateURL(ctx context.Context, url string, options map[string]string, ifAbsent bool) (Upload, error) {
	st, loc, err := Resolve(ctx, url, options)
	if err != nil {
		return nil, err
	}
	return st.Create(ctx, loc.Key, ifAbsent)
}

// Replacer is a Store that can replace an object only while it is still
// the one a reader saw: Commit of the upload fails with an error that is
// ErrChanged when the object at key no longer has the ETag etag (or is
// gone). S3 does it with a conditional PUT (If-Match).
type Replacer interface {
	CreateIfMatch(ctx context.Context, key, etag string) (Upload, error)
}

// CreateIfMatch starts replacing the object at key, conditionally on its
// ETag (see Replacer); a store that cannot make the condition part of the
// write refuses, rather than replace an object blindly.
func CreateIfMatch(ctx context.Context, st Store, key, etag string) (Upload, error) {
	r, ok := st.(Replacer)
	if !ok {
		return nil, fmt.Errorf("%s: this object store cannot replace an object conditionally (If-Match)", key)
	}
	return r.CreateIfMatch(ctx, key, etag)
}

// ListNow is List answered by the store itself, never from a cached
// listing: what a COMMIT checks for conflicts must be current.
func ListNow(ctx context.Context, st Store, prefix string) ([]Entry, error) {
	if c, ok := st.(*listCache); ok {
		ctx, cancel := context.WithTimeout(ctx, requestTimeout)
		defer cancel()
		return c.Store.List(ctx, prefix)
	}
	return st.List(ctx, prefix)
}
