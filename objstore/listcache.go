package objstore

import (
	"context"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// ListingTTL is how long a listing answers for the prefixes below it and
// for the objects in it: a statement lists a database's folder once and
// finds its tables' files, sizes and ETags there (no request per table).
// Writes through the same Store drop its listings; another process's new
// objects show after at most this long.
const ListingTTL = time.Second

// listCache wraps a Store, answering List and Stat from a recent listing
// of an enclosing prefix. The requests it makes time out after
// requestTimeout, as reads do: a store that stops answering fails the
// statement.
type listCache struct {
	Store
	mu    sync.Mutex
	lists map[string]cachedList // by prefix
}

type cachedList struct {
	at   time.Time
	ents []Entry
}

func cacheListings(st Store) Store {
	return &listCache{Store: st, lists: map[string]cachedList{}}
}

// covering returns the entries of a fresh listing of a prefix of p, if
// there is one.
func (c *listCache) covering(p string) ([]Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for prefix, l := range c.lists {
		if time.Since(l.at) > ListingTTL {
			delete(c.lists, prefix)
			continue
		}
		if strings.HasPrefix(p, prefix) {
			return l.ents, true
		}
	}
	return nil, false
}

func (c *listCache) List(ctx context.Context, prefix string) ([]Entry, error) {
	if ents, ok := c.covering(prefix); ok {
		lo := sort.Search(len(ents), func(i int) bool { return ents[i].Key >= prefix })
		hi := lo
		for hi < len(ents) && strings.HasPrefix(ents[hi].Key, prefix) {
			hi++
		}
		return ents[lo:hi:hi], nil
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	ents, err := c.Store.List(ctx, prefix)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.lists[prefix] = cachedList{at: time.Now(), ents: ents}
	c.mu.Unlock()
	return ents, nil
}

func (c *listCache) Stat(ctx context.Context, key string) (Entry, error) {
	if ents, ok := c.covering(key); ok {
		i := sort.Search(len(ents), func(i int) bool { return ents[i].Key >= key })
		if i < len(ents) && ents[i].Key == key {
			return ents[i], nil
		}
		// Not in a listing of up to ListingTTL ago: the object may be
		// newer (another writer's Delta commit, say), so the store
		// answers.
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	return c.Store.Stat(ctx, key)
}

// Drop forgets every listing (after a write).
func (c *listCache) drop() {
	c.mu.Lock()
	clear(c.lists)
	c.mu.Unlock()
}

func (c *listCache) Create(ctx context.Context, key string, ifAbsent bool) (Upload, error) {
	up, err := c.Store.Create(ctx, key, ifAbsent)
	if err != nil {
		return nil, err
	}
	return &droppingUpload{Upload: up, c: c}, nil
}

func (c *listCache) Delete(ctx context.Context, key string) error {
	defer c.drop()
	return c.Store.Delete(ctx, key)
}

func (c *listCache) ReadRange(ctx context.Context, key string, off, n int64, etag string) (io.ReadCloser, error) {
	return c.Store.ReadRange(ctx, key, off, n, etag)
}

// droppingUpload drops the store's listings once the object is there.
type droppingUpload struct {
	Upload
	c *listCache
}

func (u *droppingUpload) Commit() error {
	defer u.c.drop()
	return u.Upload.Commit()
}

// CreateIfMatch passes a conditional replacement to the store (see
// Replacer), dropping the listings once it is made.
func (c *listCache) CreateIfMatch(ctx context.Context, key, etag string) (Upload, error) {
	up, err := CreateIfMatch(ctx, c.Store, key, etag)
	if err != nil {
		return nil, err
	}
	return &droppingUpload{Upload: up, c: c}, nil
}
