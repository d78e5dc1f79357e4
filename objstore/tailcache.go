package objstore

import (
	"container/list"
	"strconv"
	"sync"
)

// The tail cache keeps the last bytes of objects (a Parquet file's
// footer), keyed by URL, size and ETag: a table opened again (a new
// connection, another statement after the table changed elsewhere) finds
// the footers of the files that did not change without asking the store.
// An object with no ETag is never cached.
var tails = &tailCache{limit: 64 << 20, byKey: map[string]*list.Element{}}

type tailCache struct {
	mu    sync.Mutex
	limit int64
	used  int64
	lru   list.List // of *tailEntry, most recent first
	byKey map[string]*list.Element
}

type tailEntry struct {
	key  string
	off  int64
	data []byte
}

func (o *Object) tailKey() string {
	return o.url + "\x00" + strconv.FormatInt(o.size, 10) + "\x00" + o.etag
}

// tailSlack: a read that ends this close to the end of the object is a
// footer read (the footer proper ends 8 bytes before the end).
const tailSlack = 8

// fromTail copies p from the cached tail, if it holds those bytes.
func (o *Object) fromTail(p []byte, off int64) bool {
	return o.inTail(off, int64(len(p)), func(tail []byte) { copy(p, tail) })
}

// tailCovers reports whether the cached tail holds r.
func (o *Object) tailCovers(r Range) bool {
	return o.inTail(r.Off, r.N, nil)
}

// inTail reports whether the cached tail holds n bytes at off, and if so
// gives them to use (when set) under the cache's lock.
func (o *Object) inTail(off, n int64, use func([]byte)) bool {
	if o.etag == "" {
		return false
	}
	c := tails
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.byKey[o.tailKey()]
	if el == nil {
		return false
	}
	e := el.Value.(*tailEntry)
	if off < e.off || off+n > e.off+int64(len(e.data)) {
		return false
	}
	if use != nil {
		use(e.data[off-e.off : off-e.off+n])
		c.lru.MoveToFront(el)
	}
	return true
}

// toTail remembers a footer read, joined to the tail already cached when
// the two meet.
func (o *Object) toTail(p []byte, off int64) {
	end := off + int64(len(p))
	if o.etag == "" || end < o.size-tailSlack || int64(len(p)) > tails.limit/4 {
		return
	}
	c := tails
	c.mu.Lock()
	defer c.mu.Unlock()
	key := o.tailKey()
	data := append([]byte(nil), p...)
	if el := c.byKey[key]; el != nil {
		e := el.Value.(*tailEntry)
		if off < e.off && end >= e.off {
			// The new read reaches the cached tail: keep the union.
			data = append(data[:e.off-off], e.data...)
		} else if off >= e.off {
			return // nothing new
		}
		c.used -= int64(len(e.data))
		c.lru.Remove(el)
		delete(c.byKey, key)
	}
	e := &tailEntry{key: key, off: off, data: data}
	c.byKey[key] = c.lru.PushFront(e)
	c.used += int64(len(data))
	for c.used > c.limit {
		last := c.lru.Back()
		old := last.Value.(*tailEntry)
		c.lru.Remove(last)
		delete(c.byKey, old.key)
		c.used -= int64(len(old.data))
	}
}

// ClearCache forgets every cached tail: the next open of each object
// reads its footer from the store again.
func ClearCache() {
	c := tails
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	c.byKey = map[string]*list.Element{}
	c.used = 0
}
