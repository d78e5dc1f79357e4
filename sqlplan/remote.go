package sqlplan

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/writer"
)

// Databases in object stores. The root is a URL (s3://bucket/prefix); a
// table is an object root/name.parquet or the objects below root/name/,
// and paths statements give resolve to URLs below the root. Objects are
// immutable: a table takes INSERTs as new objects in its folder (a table
// made here is made as a folder), each visible whole or not at all; what
// would rewrite an object (DELETE, UPDATE, ALTER, CREATE OR REPLACE, an
// INSERT into a one-object table) is refused, but inside a transaction,
// whose COMMIT replaces a one-object table's object by a conditional PUT
// (txremote.go).

// remote reports whether the engine's root is in an object store.
func (e *Engine) remote() bool { return objstore.IsURL(e.root) }

// openRemote sets up an engine over a URL: the folder (prefix) of its
// tables, or one object as the only table.
func (e *Engine) openRemote(path string) error {
	loc, err := objstore.Parse(path)
	if err != nil {
		return fmt.Errorf("carquet: %w", err)
	}
	e.opts.Store = objstore.WithOptions(path, e.opts.Store)
	url := loc.Scheme + "://" + loc.Bucket + "/" + strings.TrimSuffix(loc.Key, "/")
	if strings.HasSuffix(loc.Key, ".parquet") {
		e.root = url[:strings.LastIndexByte(url, '/')]
		e.file = url
		e.single = strings.TrimSuffix(url[len(e.root)+1:], ".parquet")
	} else {
		e.root = strings.TrimSuffix(url, "/")
	}
	// The bucket must answer: a wrong endpoint or bucket fails at Open,
	// not at the first query.
	if _, _, err := e.listRemote(e.root + "/"); err != nil {
		return fmt.Errorf("carquet: %w", err)
	}
	return nil
}

// listRemote lists the objects whose URLs start with prefix. The store
// answers from a listing of the root made less than objstore.ListingTTL
// ago: a statement's tables (their names, then their stamps and files)
// are found with one request.
func (e *Engine) listRemote(prefix string) (objstore.Store, []objstore.Entry, error) {
	ctx := context.Background()
	st, loc, err := objstore.Resolve(ctx, prefix, e.opts.Store)
	if err != nil {
		return nil, nil, err
	}
	if e.root != "" && strings.HasPrefix(prefix, e.root+"/") {
		// List the whole root first, so that it serves every table.
		root, _ := objstore.Parse(e.root + "/")
		if _, err := st.List(ctx, root.Key); err != nil {
			return nil, nil, err
		}
	}
	ents, err := st.List(ctx, loc.Key)
	return st, ents, err
}

// remoteTables lists the root once: the tables it holds by name, each
// with its URL.
func (e *Engine) remoteTables() (map[string]string, error) {
	_, ents, err := e.listRemote(e.root + "/")
	if err != nil {
		return nil, err
	}
	loc, _ := objstore.Parse(e.root + "/")
	out := map[string]string{}
	for _, ent := range ents {
		rel := strings.TrimPrefix(ent.Key, loc.Key)
		first, rest, nested := strings.Cut(rel, "/")
		if strings.HasPrefix(first, ".") || strings.HasPrefix(first, "_") {
			continue
		}
		if !nested {
			if name, ok := strings.CutSuffix(first, ".parquet"); ok {
				out[name] = e.root + "/" + first
			}
			continue
		}
		if strings.HasSuffix(rest, ".parquet") || strings.HasPrefix(rest, "_delta_log/") {
			if _, taken := out[first]; !taken {
				out[first] = e.root + "/" + first
			}
		}
	}
	return out, nil
}

// remoteTablePath resolves a plain table name in a remote root: an
// object or a folder of that name (any case), else the folder a new
// table would get.
func (e *Engine) remoteTablePath(name string) (string, bool, error) {
	if e.file != "" && strings.EqualFold(name, e.single) {
		return e.file, true, nil
	}
	tables, err := e.remoteTables()
	if err != nil {
		return "", false, err
	}
	if p, ok := tables[name]; ok {
		return p, true, nil
	}
	for t, p := range tables {
		if strings.EqualFold(t, name) {
			return p, true, nil
		}
	}
	return e.root + "/" + name, false, nil
}

// remoteNames lists a remote root's tables, sorted.
func (e *Engine) remoteNames() []string {
	if e.file != "" {
		return []string{e.single}
	}
	tables, err := e.remoteTables()
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(tables))
	for t := range tables {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// tableObjects lists the objects a URL names: the object, the objects
// below it (a folder), or those below a glob's literal prefix.
func (e *Engine) tableObjects(url string) ([]objstore.Entry, error) {
	prefix := url
	glob := strings.ContainsAny(url, "*?[")
	if glob {
		prefix = prefix[:strings.IndexAny(prefix, "*?[")]
	}
	_, ents, err := e.listRemote(prefix)
	if err != nil || glob {
		return ents, err
	}
	loc, _ := objstore.Parse(url)
	folder := strings.TrimSuffix(loc.Key, "/") + "/"
	var out []objstore.Entry
	for _, ent := range ents {
		if ent.Key == loc.Key || strings.HasPrefix(ent.Key, folder) {
			out = append(out, ent)
		}
	}
	return out, nil
}

// remoteExists reports whether a URL names an object, or a folder or
// glob with objects.
func (e *Engine) remoteExists(url string) (bool, error) {
	ents, err := e.tableObjects(url)
	return len(ents) > 0, err
}

// remoteStamp describes a remote table's objects (keys, sizes, ETags) so
// that a changed table is opened again.
func (e *Engine) remoteStamp(url string) string {
	ents, err := e.tableObjects(url)
	if err != nil {
		return ""
	}
	return entriesStamp(ents)
}

// entriesStamp is the stamp of a remote table's objects.
func entriesStamp(ents []objstore.Entry) string {
	var b strings.Builder
	for _, ent := range ents {
		fmt.Fprintf(&b, "%s:%d:%s;", ent.Key, ent.Size, ent.ETag)
	}
	return b.String()
}

// remoteRewrite refuses what would rewrite an object of a remote table.
func remoteRewrite(path, what string) error {
	if objstore.IsURL(path) {
		return unsupported(what + " of a table in an object store (objects are immutable: INSERT adds new objects, nothing rewrites one)")
	}
	return nil
}

// remoteObjectName is the name of a new object of a folder table:
// unique across processes and machines by time, host and sequence.
func remoteObjectName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("part-%d-%s-%d-%d.parquet", time.Now().UnixNano(), sanitizeHost(host), os.Getpid(), dml.NextFileSeq())
}

func sanitizeHost(h string) string {
	var b strings.Builder
	for _, c := range h {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "host"
	}
	return b.String()
}

// putObject writes one object at url, created only if the name is free;
// nothing is visible unless all of it is.
func (e *Engine) putObject(ctx context.Context, url string, sch *schema.Schema, opts []writer.Option, fill func(w *writer.Writer) error) error {
	up, err := objstore.CreateURL(ctx, url, e.opts.Store, true)
	if err != nil {
		return err
	}
	w, err := writer.NewUpload(up, sch, opts...)
	if err != nil {
		return err
	}
	if err := fill(w); err != nil {
		if aerr := w.Abort(); aerr != nil {
			return fmt.Errorf("%w (and aborting the upload: %v)", err, aerr)
		}
		return fmt.Errorf("%w (nothing was written to %s)", err, url)
	}
	return w.Close()
}

// writeRemote writes a new object of a folder table.
func (e *Engine) writeRemote(ctx context.Context, folder string, sch *schema.Schema, opts []writer.Option, fill func(w *writer.Writer) error) error {
	return e.putObject(ctx, folder+"/"+remoteObjectName(), sch, opts, fill)
}

// writeRemoteBatches is writeRows for a remote folder table.
func (e *Engine) writeRemoteBatches(folder string, sch *schema.Schema, opts []writer.Option, batches [][]*vector.Vector) error {
	return e.writeRemote(context.Background(), folder, sch, opts, func(w *writer.Writer) error {
		for _, b := range batches {
			if err := w.WriteBatch(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// dropRemote removes a remote table's objects: the object, or every
// object below the folder.
func (e *Engine) dropRemote(url string) error {
	st, ents, err := e.listRemote(url)
	if err != nil {
		return err
	}
	loc, _ := objstore.Parse(url)
	for _, ent := range ents {
		if ent.Key == loc.Key || strings.HasPrefix(ent.Key, loc.Key+"/") {
			if err := st.Delete(context.Background(), ent.Key); err != nil {
				return err
			}
		}
	}
	return nil
}

// createRemote makes a new table at url: the object itself when url
// names a .parquet object, else a folder with one object (so that the
// table takes INSERTs).
func (e *Engine) createRemote(ctx context.Context, url string, sch *schema.Schema, opts []writer.Option, fill func(w *writer.Writer) error) error {
	if strings.HasSuffix(url, ".parquet") {
		return e.putObject(ctx, url, sch, opts, fill)
	}
	return e.writeRemote(ctx, url, sch, opts, fill)
}

// warmRemote opens at once the tables of a remote root that a
// statement's text names, so that planning, which opens its tables one
// after another, finds them open: each costs a round trip or two (its
// footers). A word that only looks like a table's name costs an open of
// that table, nothing more.
func (e *Engine) warmRemote(text string) {
	if !e.remote() || e.opts.DeltaVersion != nil {
		return
	}
	toks, err := parse.Lex(text)
	if err != nil {
		return
	}
	tables, err := e.remoteTables()
	if err != nil || len(tables) < 2 {
		return
	}
	byName := make(map[string]string, len(tables))
	for name, p := range tables {
		byName[strings.ToLower(name)] = p
	}
	seen := map[string]bool{}
	var paths []string
	for _, t := range toks {
		if t.Kind != parse.Ident && t.Kind != parse.Quoted && t.Kind != parse.DQuoted {
			continue
		}
		if p, ok := byName[strings.ToLower(t.Unquoted())]; ok && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if len(paths) < 2 {
		return
	}
	var wg sync.WaitGroup
	for _, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if t, err := e.acquire(p, nil, false); err == nil {
				e.release(t) // stays open for the planner
			}
		}()
	}
	wg.Wait()
}
