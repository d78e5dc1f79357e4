package scan

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// Tables in object stores (paths that are URLs, see package objstore)
// are listed by key instead of walked, and their files are read through
// objstore.Object: the footer with one request (a tail read large enough
// for most footers and their page indexes, cached by ETag), the column
// chunks a row group needs fetched ahead in parallel (prefetch).

// remoteTailRead is the first read of a remote file's end: a request
// costs about the same for a few hundred KiB as for 64 KiB, and a footer
// or page index that does not fit costs another round trip. A 256th of
// the file, between 64 KiB and 2 MiB, holds the footer and the page
// indexes of files written with pages of usual sizes.
func remoteTailRead(size int64) int {
	return int(min(max(size/256, 64<<10), 2<<20))
}

// listRemote returns the Parquet objects a URL names (an object, a
// prefix taken as a folder, or a glob over keys) and, for a folder, its
// URL (the root of hive partition names).
func listRemote(ctx context.Context, url string, opts Options) ([]FileRef, string, error) {
	st, loc, err := objstore.Resolve(ctx, url, opts.Store)
	if err != nil {
		return nil, "", err
	}
	base := loc.Scheme + "://" + loc.Bucket + "/"
	key := loc.Key
	ref := func(e objstore.Entry) FileRef {
		return FileRef{Path: base + e.Key, Size: e.Size, ETag: e.ETag}
	}
	if i := strings.IndexAny(key, "*?["); i >= 0 {
		// A glob: list below its literal folder, match each key.
		dir := key[:strings.LastIndexByte(key[:i], '/')+1]
		ents, err := st.List(ctx, dir)
		if err != nil {
			return nil, "", err
		}
		var out []FileRef
		for _, e := range ents {
			if ok, err := matchKey(key, e.Key); err != nil {
				return nil, "", fmt.Errorf("%s: %w", url, err)
			} else if ok {
				out = append(out, ref(e))
			}
		}
		return out, "", nil
	}
	if key != "" && !strings.HasSuffix(key, "/") {
		if e, err := st.Stat(ctx, key); err == nil {
			return []FileRef{ref(e)}, "", nil
		} else if !objstore.IsNotExist(err) {
			return nil, "", err
		}
	}
	dir := strings.TrimSuffix(key, "/")
	prefix := dir + "/"
	if dir == "" {
		prefix = ""
	}
	ents, err := st.List(ctx, prefix)
	if err != nil {
		return nil, "", err
	}
	var out []FileRef
	for _, e := range ents {
		if isDataKey(e.Key[len(prefix):]) {
			out = append(out, ref(e))
		}
	}
	return out, base + dir, nil
}

// matchKey matches a key against a glob whose '*' stays within one
// folder and whose "**" spans any number of them.
func matchKey(pattern, key string) (bool, error) {
	if !strings.Contains(pattern, "**") {
		return path.Match(pattern, key)
	}
	pp, kp := strings.Split(pattern, "/"), strings.Split(key, "/")
	var match func(i, j int) (bool, error)
	match = func(i, j int) (bool, error) {
		if i == len(pp) {
			return j == len(kp), nil
		}
		if pp[i] == "**" {
			for k := j; k <= len(kp); k++ {
				if ok, err := match(i+1, k); ok || err != nil {
					return ok, err
				}
			}
			return false, nil
		}
		if j == len(kp) {
			return false, nil
		}
		ok, err := path.Match(pp[i], kp[j])
		if !ok || err != nil {
			return false, err
		}
		return match(i+1, j+1)
	}
	return match(0, 0)
}

// isDataKey reports whether a key below a table's prefix is one of its
// Parquet files: not hidden, not in a hidden or underscore folder (a
// Delta log, a Spark _temporary).
func isDataKey(rel string) bool {
	if !strings.HasSuffix(rel, ".parquet") {
		return false
	}
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") || strings.HasPrefix(part, "_") {
			return false
		}
	}
	return true
}

// relDir is the folder part of a file's URL below a table's URL, for
// hive partition names.
func relDir(root, p string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// OpenFile opens one Parquet file, its footer decoded whole: a local path
// (memory-mapped with opts.Mmap), or an object store URL read through
// objstore.Object. The file's Close releases what it holds.
func OpenFile(path string, opts Options) (*file.File, error) {
	fo := file.Options{Name: path, SkipChecksums: opts.SkipChecksums, Limits: opts.Limits, Decryption: opts.Decryption}
	if !objstore.IsURL(path) {
		return file.OpenFile(path, fo, opts.Mmap)
	}
	obj, err := objstore.OpenURL(context.Background(), path, opts.Store)
	if err != nil {
		return nil, err
	}
	return openObject(obj, fo)
}

// openObject reads the footer of a remote file (one request: a tail read
// sized by remoteTailRead, or none when the tail is cached).
func openObject(obj *objstore.Object, fo file.Options) (*file.File, error) {
	fo.TailRead = remoteTailRead(obj.Size())
	fo.NoHeadCheck = true
	return file.OpenOwned(obj, obj, obj.Size(), fo)
}

// openRemoteFile opens one of a table's remote files.
func (t *Table) openRemoteFile(ref FileRef) (*file.File, error) {
	ctx := context.Background()
	st, loc, err := objstore.Resolve(ctx, ref.Path, t.opts.Store)
	if err != nil {
		return nil, err
	}
	obj := objstore.Open(ctx, st, ref.Path, objstore.Entry{Key: loc.Key, Size: ref.Size, ETag: ref.ETag})
	return openObject(obj, file.Options{Name: ref.Path, SkipChecksums: t.opts.SkipChecksums, LazyColumns: true, Limits: t.opts.Limits, Decryption: t.opts.Decryption})
}

// openAhead starts opening the footers of a remote Delta table's files
// that its log's statistics keep, 16 at a time, while plan works through
// them in order (a folder table's are open already: openAll).
func (s *Scanner) openAhead() {
	t := s.t
	if t.delta == nil || len(t.Files) < 2 || !objstore.IsURL(t.Files[0].Path) {
		return
	}
	var keep []int
	for fi := range t.Files {
		if s.filter != nil && !s.req.NoPruning && !s.deltaFileMayMatch(fi, s.filter) {
			continue
		}
		keep = append(keep, fi)
	}
	go func() {
		sem := make(chan struct{}, 16)
		for _, fi := range keep {
			select {
			case sem <- struct{}{}:
			case <-s.ctx.Done():
				return
			}
			go func() {
				defer func() { <-sem }()
				t.File(fi) // an error shows when plan opens the file
			}()
		}
	}()
}

// prefetchAhead announces a unit's ranges when the planner queues it,
// before a worker takes it: the pages its filter's page index leaves (the
// worker computes them again, from the cached indexes), within its span.
func (s *Scanner) prefetchAhead(b *fileBinding, f *file.File, u *unit) {
	if _, ok := f.ReaderAt().(*objstore.Object); !ok {
		return
	}
	var rows ranges
	if s.filter != nil && !s.req.NoPruning {
		var pc pageCounter
		r, err := s.pageRanges(b, f, u.rg, s.filter, &pc)
		if err != nil {
			return
		}
		rows = r
	}
	if u.span {
		rows = intersect(rows, ranges{{Start: u.from, End: u.to}}, f.Meta.RowGroups[u.rg].NumRows)
	}
	if rows != nil && len(rows) == 0 {
		return
	}
	s.prefetch(b, f, u.rg, rows)
}

// prefetch announces the byte ranges a unit is about to read from a
// remote file: each column chunk whole, or where pages are pruned (rows
// given), its dictionary and the pages holding those rows.
func (s *Scanner) prefetch(b *fileBinding, f *file.File, rg int, rows ranges) {
	obj, ok := f.ReaderAt().(*objstore.Object)
	if !ok {
		return
	}
	var want []objstore.Range
	for _, name := range b.needed {
		fd := b.fields[name]
		if fd == nil {
			continue
		}
		for _, leaf := range schema.LeavesUnder(nil, fd.Node) {
			c, err := f.Chunk(rg, leaf.Column)
			if err != nil {
				return // the read reports it
			}
			start, n, err := c.ByteRange()
			if err != nil {
				return
			}
			if rows != nil {
				if oi, err := c.OffsetIndex(); err == nil && oi != nil && len(oi.PageLocations) > 0 {
					want = append(want, pagesOf(oi, start, rows, f.Meta.RowGroups[rg].NumRows)...)
					continue
				}
			}
			want = append(want, objstore.Range{Off: start, N: n})
		}
	}
	obj.Prefetch(s.ctx, want)
}

// pagesOf is the byte ranges of a chunk's dictionary (from start to the
// first data page) and of the pages that hold the rows.
func pagesOf(oi *format.OffsetIndex, start int64, rows ranges, numRows int64) []objstore.Range {
	locs := oi.PageLocations
	var out []objstore.Range
	if first := locs[0].Offset; first > start {
		out = append(out, objstore.Range{Off: start, N: first - start})
	}
	for i, l := range locs {
		end := numRows
		if i+1 < len(locs) {
			end = locs[i+1].FirstRowIndex
		}
		for _, r := range rows {
			if r.Start < end && l.FirstRowIndex < r.End {
				out = append(out, objstore.Range{Off: l.Offset, N: int64(l.CompressedPageSize)})
				break
			}
		}
	}
	return out
}
