package sqlplan

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
	"sync"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

// The targets of statements outside transactions that write a local
// single-file table, kept from one statement to the next. Resolving a
// target opens the table (its footer, for the schema, the options and the
// key-value metadata) under the read side of the engine's write lock: for
// many one-row INSERTs, each would read the footer again and wait for the
// append before it to end, and so reach group commit (groupcommit.go)
// only after that append, not while it runs.
//
// A kept target serves while the file is as it was when its footer was
// read: the same inode, size and time, and the same journal. Appends
// change no schema and no options; so the engine's own append, when the
// footer it wrote holds the target's schema and key-value metadata,
// moves the target on to the file as the append left it (read under the
// append's lock, so no other writer's change passes for it). Any other
// change — an append by another engine or process, a rewrite (ALTER,
// DELETE, OPTIMIZE: a new inode) — makes the target be read again.

// targetCache holds the kept targets by table name.
type targetCache struct {
	mu sync.Mutex
	m  map[string]*keptTarget
}

type keptTarget struct {
	tg    *target
	state fileState
	// schema and kv are what an append must keep for tg to stay right:
	// the footer's schema and key-value metadata.
	schema []format.SchemaElement
	kv     []format.KeyValue
}

// fileState is a file and its journal as stat saw them; journal is nil
// when there is none.
type fileState struct {
	file, journal os.FileInfo
}

// statTable reads the state of the single-file table at path; ok is false
// for anything else (a folder, a file stat cannot read).
func statTable(path string) (fileState, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return fileState{}, false
	}
	jst, err := os.Stat(path + writer.JournalSuffix)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return fileState{}, false
		}
		jst = nil
	}
	return fileState{file: st, journal: jst}, true
}

func (s fileState) equal(o fileState) bool {
	return s.file != nil && sameInfo(s.file, o.file) && sameInfo(s.journal, o.journal)
}

func sameInfo(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// keptTargetOf returns the kept target of the table name when the file
// it resolves to is as the target knows it.
func (e *Engine) keptTargetOf(name string) *target {
	c := &e.targets
	c.mu.Lock()
	k := c.m[name]
	c.mu.Unlock()
	if k == nil {
		return nil
	}
	path, ok, err := e.tablePath(name)
	if err != nil || !ok || path != k.tg.path {
		return nil
	}
	if st, ok := statTable(path); !ok || !st.equal(k.state) {
		return nil
	}
	return k.tg
}

// keepTarget keeps tg, read from a footer with schema and kv after the
// file was in state before (read first, so that a change in between
// shows as one).
func (e *Engine) keepTarget(name string, tg *target, before fileState, schema []format.SchemaElement, kv []format.KeyValue) {
	c := &e.targets
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*keptTarget{}
	}
	c.m[name] = &keptTarget{tg: tg, state: before, schema: schema, kv: kv}
}

// appendedTo moves the kept targets of the file at path on to the state
// the engine's append w left it in, when the footer w wrote keeps their
// schema and key-value metadata (so they describe the file as it is);
// others are dropped, and the next statement reads the footer again.
func (e *Engine) appendedTo(path string, w *writer.Writer) {
	st, jst := w.Committed()
	meta, _ := w.Written()
	c := &e.targets
	c.mu.Lock()
	defer c.mu.Unlock()
	for name, k := range c.m {
		if k.tg.path != path {
			continue
		}
		if st == nil || meta == nil || !reflect.DeepEqual(k.schema, meta.Schema) || !reflect.DeepEqual(k.kv, meta.KeyValueMetadata) {
			delete(c.m, name)
			continue
		}
		moved := *k
		moved.state = fileState{file: st, journal: jst}
		c.m[name] = &moved
	}
}
