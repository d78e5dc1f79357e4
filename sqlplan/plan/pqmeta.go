package plan

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB's Parquet introspection table functions: parquet_metadata (a row
// per column chunk), parquet_schema (a row per schema element),
// parquet_file_metadata (a row per file), parquet_kv_metadata (a row per
// footer key/value pair), parquet_bloom_probe (a row per row group) and
// parquet_full_metadata (the four as lists, a row per file); and
// glob(pattern), the files a pattern names. Each takes a path, a glob or
// a list of them, with DuckDB's column names, order and types. They read
// footers only (parquet/file), never a data page; the bloom probe reads
// the filters.

// metaFile is an open file and the name its rows show: as the pattern
// named it (relative to the root when the pattern was).
type metaFile struct {
	name string
	f    *file.File
}

// ParquetMetaRelation is the relation of a call the rewrite made a table
// name of (parse/pqmeta.go), ok false for other names.
func (p *Planner) ParquetMetaRelation(name, alias string) (*Relation, bool, error) {
	enc, ok := strings.CutPrefix(name, parse.ParquetMetaMarker)
	if !ok {
		return nil, false, nil
	}
	q, err := url.ParseQuery(enc)
	fn := q.Get("fn")
	if _, known := parse.ParquetMetaFunctions[fn]; err != nil || !known {
		return nil, true, errorf("%s is a name reserved for carquet's own use", name)
	}
	if alias == "" {
		alias = fn
	}
	c := &CatalogRows{}
	if fn == "glob" {
		err = p.globRows(c, q["path"])
	} else {
		err = p.fileMetaRows(c, fn, q)
	}
	if err != nil {
		return nil, true, err
	}
	return c.Relation(alias, strings.ToUpper(fn)), true, nil
}

// fileMetaRows opens the files the paths name, one at a time, and adds
// the function's rows for each.
func (p *Planner) fileMetaRows(c *CatalogRows, fn string, q url.Values) error {
	names, paths, err := p.metaPaths(q["path"])
	if err != nil {
		return err
	}
	var add func(m metaFile) error
	switch fn {
	case "parquet_metadata":
		add = chunkMetaColumns(c)
	case "parquet_schema":
		add = schemaMetaColumns(c)
	case "parquet_file_metadata":
		add = fileMetaColumns(c)
	case "parquet_kv_metadata":
		add = kvMetaColumns(c)
	case "parquet_full_metadata":
		add = fullMetaColumns(c)
	case "parquet_bloom_probe":
		add = p.bloomProbeColumns(c, q.Get("column"), q.Get("kind"), q.Get("value"))
	}
	for i, path := range paths {
		f, err := scan.OpenFile(path, p.Cat.ScanOptions())
		if err != nil {
			return errorf("%s: %v", names[i], err)
		}
		err = add(metaFile{name: names[i], f: f})
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// metaPaths expands the patterns into the files they name, in order
// (each glob's matches sorted), with the names the rows show. A pattern
// that names no file is an error, as in DuckDB.
func (p *Planner) metaPaths(patterns []string) (names, paths []string, err error) {
	for _, pat := range patterns {
		n, ps, err := p.expandPattern(pat)
		if err != nil {
			return nil, nil, err
		}
		if len(ps) == 0 {
			return nil, nil, errorf("No files found that match the pattern %q", pat)
		}
		names, paths = append(names, n...), append(paths, ps...)
	}
	return names, paths, nil
}

// expandPattern lists the regular files a path or glob names, confined
// to the root as every path a statement reads. A URL is taken as one
// object (globs over object stores are not listed here).
func (p *Planner) expandPattern(pat string) (names, paths []string, err error) {
	full, err := p.Cat.Confine().Join(pat, false)
	if err != nil {
		return nil, nil, &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	if objstore.IsURL(full) {
		if strings.ContainsAny(pat, "*?[") {
			return nil, nil, errorf("%s: glob patterns over object stores are not supported here", pat)
		}
		return []string{pat}, []string{full}, nil
	}
	matches, err := globFiles(full)
	if err != nil {
		return nil, nil, errorf("%s: %v", pat, err)
	}
	for _, m := range matches {
		if err := p.Cat.Confine().Check(m, false); err != nil {
			return nil, nil, &Error{Msg: err.Error(), Offset: -1, Err: err}
		}
		names = append(names, shownPath(pat, full, m))
		paths = append(paths, m)
	}
	return names, paths, nil
}

// shownPath is the name a match shows: as written when the pattern names
// one file, else the match relative to where a relative pattern starts,
// behind "./" when the pattern's first segment is a wildcard (DuckDB
// globs '*.parquet' into './a.parquet').
func shownPath(pat, full, match string) string {
	if match == full {
		return pat
	}
	if filepath.IsAbs(pat) {
		return match
	}
	base := strings.TrimSuffix(full, filepath.FromSlash(pat))
	rel, err := filepath.Rel(base, match)
	if err != nil || base == full {
		return match
	}
	rel = filepath.ToSlash(rel)
	if first, _, _ := strings.Cut(filepath.ToSlash(pat), "/"); strings.ContainsAny(first, "*?[") {
		rel = "./" + rel
	}
	return rel
}

// globFiles lists the regular files matching pattern, sorted: * ? and
// [...] match within one path segment, ** any number of segments. A
// pattern without wildcards names itself, if it is a file.
func globFiles(pattern string) ([]string, error) {
	if !strings.ContainsAny(pattern, "*?[") {
		if st, err := os.Stat(pattern); err == nil && st.Mode().IsRegular() {
			return []string{pattern}, nil
		}
		return nil, nil
	}
	if !strings.Contains(pattern, "**") {
		m, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		return regularFiles(m), nil
	}
	// The folder before the first wildcard is walked; each file's path
	// is matched segment by segment.
	dir := pattern[:strings.IndexAny(pattern, "*?[")]
	dir = dir[:strings.LastIndexByte(dir, filepath.Separator)+1]
	if dir == "" {
		dir = "."
	}
	want := strings.Split(pattern, string(filepath.Separator))
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is left out, as a glob does
		}
		if d.Type().IsRegular() && matchSegments(want, strings.Split(path, string(filepath.Separator))) {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// regularFiles keeps the regular files of paths, sorted.
func regularFiles(paths []string) []string {
	var out []string
	for _, m := range paths {
		if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// matchSegments matches a path's segments against a pattern's, where a
// ** segment matches zero or more segments.
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for k := 0; k <= len(segs); k++ {
				if matchSegments(pat[1:], segs[k:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := filepath.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// globRows is glob(pattern): the files each pattern names, a pattern
// naming none adding no row.
func (p *Planner) globRows(c *CatalogRows, patterns []string) error {
	col := c.Col("file", TString)
	for _, pat := range patterns {
		names, _, err := p.expandPattern(pat)
		if err != nil {
			return err
		}
		for _, n := range names {
			c.N++
			col.Add(n)
		}
	}
	return nil
}
