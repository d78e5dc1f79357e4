package delta

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/value"
)

// LogDir is the name of a Delta table's transaction log folder.
const LogDir = "_delta_log"

// Snapshot is the state of a Delta table at one version: its protocol,
// metadata and live data files.
type Snapshot struct {
	Root     string
	Version  int64
	Protocol Protocol
	Metadata Metadata
	// Schema is the parsed schemaString (a struct).
	Schema *Type
	// ColumnMapping is the column mapping mode: "none", "name" or "id".
	ColumnMapping string
	// Files are the live data files, in log order.
	Files []*AddFile
	// Store holds the object store options of a table whose Root is a
	// URL (for its deletion vectors).
	Store map[string]string

	// tombstones are the remove actions of files not added again, for a
	// checkpoint.
	tombstones []*fileAction
}

// AddFile is a live data file of a snapshot.
type AddFile struct {
	// Path is the file's path on disk (the action's URI decoded and, when
	// relative, joined to the table root); URI the action's path as given.
	Path string
	URI  string
	// PartitionValues are the serialized partition values by (physical)
	// partition column name; nil for a null value.
	PartitionValues map[string]*string
	Size            int64
	// ModificationTime is the add action's, in milliseconds.
	ModificationTime int64
	DeletionVector   *dv.Descriptor
	// StatsJSON is the action's stats string, parsed on first use by Stats.
	StatsJSON string

	statsOnce sync.Once
	stats     *Stats
	statsErr  error
}

// Stats returns the file's parsed statistics, nil when the action has
// none. It is safe for concurrent use.
func (a *AddFile) Stats() (*Stats, error) {
	a.statsOnce.Do(func() {
		if a.StatsJSON != "" {
			a.stats, a.statsErr = parseStats(a.StatsJSON)
			if a.statsErr != nil {
				a.statsErr = fmt.Errorf("delta: stats of %s: %w", a.URI, a.statsErr)
			}
		}
	})
	return a.stats, a.statsErr
}

// Stats are an add action's per-file statistics. Column values are keyed
// by physical column name; nested structs are nested maps. Numbers are
// json.Number.
type Stats struct {
	// NumRecords is the file's row count (deleted rows included), -1 when
	// unknown.
	NumRecords                      int64
	MinValues, MaxValues, NullCount map[string]any
}

// Value looks up a column's entry in one of the stats maps by its path of
// physical names.
func Value(m map[string]any, path []string) (any, bool) {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[p]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

// IsTable reports whether path is a folder holding a Delta log.
func IsTable(path string) bool { return IsTableWith(path, nil) }

// IsTableWith is IsTable for a path that may be an object store URL,
// with the store's options.
func IsTableWith(path string, store map[string]string) bool {
	if isURL(path) {
		names, err := storage{store}.fileNames(join(path, LogDir))
		return err == nil && len(names) > 0
	}
	st, err := os.Stat(filepath.Join(path, LogDir))
	return err == nil && st.IsDir()
}

// ErrVersion marks a request for a version the log cannot reconstruct.
var ErrVersion = errors.New("delta: no such version")

// logFiles is what a listing of _delta_log holds.
type logFiles struct {
	commits     map[int64]string
	checkpoints map[int64][]checkpoint
	// compactions are the log compaction files: their end versions by
	// start version.
	compactions map[int64][]int64
	latest      int64
}

// compaction returns the end of the longest log compaction that starts
// at version from and ends at limit at the latest.
func (lf *logFiles) compaction(from, limit int64) (int64, bool) {
	end := int64(-1)
	for _, y := range lf.compactions[from] {
		if y <= limit {
			end = max(end, y)
		}
	}
	return end, end >= 0
}

// checkpoint is one complete checkpoint of a version: a classic file, the
// parts of a multi-part checkpoint, or a UUID-named V2 checkpoint.
type checkpoint struct {
	files []string
	kind  int // 0: classic, 1: multi-part, 2: V2 (UUID-named)
}

func (s storage) listLog(dir string) (*logFiles, error) {
	names, err := s.fileNames(dir)
	if err != nil {
		return nil, fmt.Errorf("delta: %w", err)
	}
	lf := &logFiles{commits: map[int64]string{}, checkpoints: map[int64][]checkpoint{}, compactions: map[int64][]int64{}, latest: -1}
	parts := map[int64]map[int]map[int]string{} // version → part count → part → name
	for _, name := range names {
		if len(name) < 21 || name[20] != '.' {
			continue
		}
		v, err := strconv.ParseInt(name[:20], 10, 64)
		if err != nil || v < 0 {
			continue
		}
		rest := name[21:]
		switch {
		case rest == "json":
			lf.commits[v] = name
			lf.latest = max(lf.latest, v)
		case len(rest) == 20+len(".compacted.json") && strings.HasSuffix(rest, ".compacted.json"):
			// <x>.<y>.compacted.json, y > x.
			if y, err := strconv.ParseInt(rest[:20], 10, 64); err == nil && y > v {
				lf.compactions[v] = append(lf.compactions[v], y)
			}
		case rest == "checkpoint.parquet":
			lf.checkpoints[v] = append(lf.checkpoints[v], checkpoint{files: []string{name}})
		case strings.HasPrefix(rest, "checkpoint."):
			mid := strings.TrimPrefix(rest, "checkpoint.")
			segs := strings.Split(mid, ".")
			if len(segs) == 3 && segs[2] == "parquet" && len(segs[0]) == 10 && len(segs[1]) == 10 {
				o, err1 := strconv.Atoi(segs[0])
				p, err2 := strconv.Atoi(segs[1])
				if err1 == nil && err2 == nil && o >= 1 && o <= p {
					if parts[v] == nil {
						parts[v] = map[int]map[int]string{}
					}
					if parts[v][p] == nil {
						parts[v][p] = map[int]string{}
					}
					parts[v][p][o] = name
				}
				continue
			}
			if len(segs) == 2 && (segs[1] == "json" || segs[1] == "parquet") && segs[0] != "" {
				lf.checkpoints[v] = append(lf.checkpoints[v], checkpoint{files: []string{name}, kind: 2})
			}
		}
	}
	for v, byCount := range parts {
		for p, got := range byCount {
			if len(got) != p {
				continue // incomplete: a reader must ignore it
			}
			cp := checkpoint{kind: 1}
			for o := 1; o <= p; o++ {
				cp.files = append(cp.files, got[o])
			}
			lf.checkpoints[v] = append(lf.checkpoints[v], cp)
		}
	}
	for v := range lf.checkpoints {
		lf.latest = max(lf.latest, v)
		// Prefer V2 and classic checkpoints over multi-part ones.
		sort.SliceStable(lf.checkpoints[v], func(i, j int) bool {
			return rank(lf.checkpoints[v][i].kind) < rank(lf.checkpoints[v][j].kind)
		})
	}
	return lf, nil
}

func rank(kind int) int { return [...]int{1, 2, 0}[kind] }

// Latest returns the newest version of the table's log.
func Latest(root string) (int64, error) {
	lf, err := storage{}.listLog(join(root, LogDir))
	if err != nil {
		return 0, err
	}
	if lf.latest < 0 {
		return 0, fmt.Errorf("delta: %s: the log has no commits", root)
	}
	return lf.latest, nil
}

// Open reconstructs the snapshot of the table at root at version (the
// latest when version < 0): the newest checkpoint not newer than the
// version, then the commits after it.
func Open(root string, version int64) (*Snapshot, error) {
	return OpenWith(root, version, nil)
}

// OpenWith is Open for a root that may be an object store URL, with the
// store's options (kept in the snapshot for its deletion vectors).
func OpenWith(root string, version int64, store map[string]string) (*Snapshot, error) {
	st := storage{store}
	dir := join(root, LogDir)
	lf, err := st.listLog(dir)
	if err != nil {
		return nil, err
	}
	if lf.latest < 0 {
		return nil, fmt.Errorf("delta: %s: the log has no commits", root)
	}
	if version < 0 {
		version = lf.latest
	}
	if version > lf.latest {
		return nil, fmt.Errorf("%w: %s: version %d (the latest is %d)", ErrVersion, root, version, lf.latest)
	}
	r := &replay{root: root, st: st, live: map[string]*AddFile{}}
	start := int64(0)
	cpVersion := int64(-1)
	for v := version; v >= 0; v-- {
		if cps := lf.checkpoints[v]; len(cps) > 0 {
			if err := r.checkpoint(dir, cps[0]); err != nil {
				return nil, err
			}
			cpVersion, start = v, v+1
			break
		}
	}
	for v := start; v <= version; v++ {
		name, ok := lf.commits[v]
		if y, compacted := lf.compaction(v, version); compacted {
			// The commits v..y reconciled: read in their place.
			name, v = compactionName(v, y), y
		} else if !ok {
			if cpVersion < 0 {
				return nil, fmt.Errorf("%w: %s: commit %d is missing and no checkpoint covers it", ErrVersion, root, v)
			}
			return nil, fmt.Errorf("%w: %s: commit %d is missing after the checkpoint of version %d", ErrVersion, root, v, cpVersion)
		}
		data, err := st.readFile(join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("delta: %w", err)
		}
		if err := parseActions(name, data, r.apply); err != nil {
			return nil, err
		}
	}
	snap, err := r.snapshot(version)
	if snap != nil {
		snap.Store = store
	}
	return snap, err
}

// replay accumulates actions in log order.
type replay struct {
	root     string
	st       storage
	protocol *Protocol
	metadata *Metadata
	live     map[string]*AddFile // by path and deletion vector id
	order    []string
	removed  map[string]*fileAction // tombstones, by path and deletion vector id
	rorder   []string
	sidecars []string
}

func fileKey(path string, d *dv.Descriptor) string {
	if d == nil {
		return path
	}
	return path + "\x00" + d.UniqueID()
}

func (r *replay) apply(a *action) error {
	switch {
	case a.Protocol != nil:
		r.protocol = a.Protocol
	case a.MetaData != nil:
		r.metadata = a.MetaData
	case a.Add != nil:
		af, err := r.addFile(a.Add)
		if err != nil {
			return err
		}
		k := fileKey(af.Path, af.DeletionVector)
		if _, ok := r.live[k]; !ok {
			r.order = append(r.order, k)
		}
		r.live[k] = af
		delete(r.removed, k)
	case a.Remove != nil:
		p, err := r.resolve(a.Remove.Path)
		if err != nil {
			return err
		}
		k := fileKey(p, a.Remove.DeletionVector)
		delete(r.live, k)
		if r.removed == nil {
			r.removed = map[string]*fileAction{}
		}
		if _, ok := r.removed[k]; !ok {
			r.rorder = append(r.rorder, k)
		}
		r.removed[k] = a.Remove
	case a.Sidecar != nil:
		r.sidecars = append(r.sidecars, a.Sidecar.Path)
	}
	return nil
}

// resolve turns an action's path URI into a file path.
func (r *replay) resolve(uri string) (string, error) {
	if uri == "" {
		return "", fmt.Errorf("a file action without a path")
	}
	if isURL(r.root) {
		// A table in an object store: its files are below its root, or
		// URLs of the same store.
		if isURL(uri) {
			return uri, nil
		}
		if strings.HasPrefix(uri, "file:") {
			return "", fmt.Errorf("path %q: a table in an object store reads no local files", uri)
		}
		p, err := url.PathUnescape(uri)
		if err != nil {
			return "", fmt.Errorf("path %q: %w", uri, err)
		}
		return join(r.root, p), nil
	}
	if strings.Contains(uri, "://") || strings.HasPrefix(uri, "file:") {
		u, err := url.Parse(uri)
		if err != nil {
			return "", fmt.Errorf("path %q: %w", uri, err)
		}
		if u.Scheme != "file" {
			return "", fmt.Errorf("path %q: the %s:// scheme is not supported", uri, u.Scheme)
		}
		return filepath.FromSlash(u.Path), nil
	}
	p, err := url.PathUnescape(uri)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", uri, err)
	}
	if filepath.IsAbs(p) {
		return p, nil
	}
	return filepath.Join(r.root, filepath.FromSlash(p)), nil
}

func (r *replay) addFile(a *fileAction) (*AddFile, error) {
	p, err := r.resolve(a.Path)
	if err != nil {
		return nil, err
	}
	af := &AddFile{Path: p, URI: a.Path, PartitionValues: a.PartitionValues, Size: a.Size, ModificationTime: a.ModificationTime, DeletionVector: a.DeletionVector}
	if a.Stats != nil {
		af.StatsJSON = *a.Stats
	}
	return af, nil
}

func parseStats(s string) (*Stats, error) {
	var raw struct {
		NumRecords *json.Number   `json:"numRecords"`
		MinValues  map[string]any `json:"minValues"`
		MaxValues  map[string]any `json:"maxValues"`
		NullCount  map[string]any `json:"nullCount"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	st := &Stats{NumRecords: -1, MinValues: raw.MinValues, MaxValues: raw.MaxValues, NullCount: raw.NullCount}
	if raw.NumRecords != nil {
		n, err := raw.NumRecords.Int64()
		if err != nil || n < 0 {
			return nil, fmt.Errorf("numRecords %s", *raw.NumRecords)
		}
		st.NumRecords = n
	}
	return st, nil
}

func (r *replay) snapshot(version int64) (*Snapshot, error) {
	if r.protocol == nil {
		return nil, fmt.Errorf("delta: %s: no protocol action up to version %d", r.root, version)
	}
	if r.metadata == nil {
		return nil, fmt.Errorf("delta: %s: no metaData action up to version %d", r.root, version)
	}
	if err := r.protocol.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", r.root, err)
	}
	if p := r.metadata.Format.Provider; p != "" && !strings.EqualFold(p, "parquet") {
		return nil, fmt.Errorf("delta: %s: data files in the %q format are not supported", r.root, p)
	}
	s := &Snapshot{Root: r.root, Version: version, Protocol: *r.protocol, Metadata: *r.metadata, ColumnMapping: "none"}
	if m := r.metadata.Configuration["delta.columnMapping.mode"]; m != "" {
		s.ColumnMapping = m
	}
	switch s.ColumnMapping {
	case "none", "name", "id":
	default:
		return nil, fmt.Errorf("delta: %s: column mapping mode %q is not supported", r.root, s.ColumnMapping)
	}
	if p := r.protocol; s.ColumnMapping != "none" && p.MinReaderVersion == 3 && !p.HasFeature("columnMapping") {
		return nil, fmt.Errorf("delta: %s: column mapping mode %q without the columnMapping reader feature", r.root, s.ColumnMapping)
	}
	sch, err := ParseSchema(r.metadata.SchemaString)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.root, err)
	}
	s.Schema = sch
	if s.ColumnMapping == "none" {
		clearMapping(sch)
	}
	for _, pc := range r.metadata.PartitionColumns {
		if s.Field(pc) == nil {
			return nil, fmt.Errorf("delta: %s: partition column %q is not in the schema", r.root, pc)
		}
	}
	for _, k := range r.order {
		if af, ok := r.live[k]; ok {
			s.Files = append(s.Files, af)
			delete(r.live, k) // a key re-added after a remove is listed once
		}
	}
	for _, k := range r.rorder {
		if rm, ok := r.removed[k]; ok {
			s.tombstones = append(s.tombstones, rm)
			delete(r.removed, k)
		}
	}
	return s, nil
}

// clearMapping makes physical names the logical ones and drops ids when
// the table does not map columns (metadata left by an earlier mode is
// ignored).
func clearMapping(t *Type) {
	switch t.Name {
	case "struct":
		for _, f := range t.Fields {
			f.PhysicalName, f.ID = f.Name, 0
			clearMapping(f.Type)
		}
	case "array":
		clearMapping(t.Element)
	case "map":
		clearMapping(t.Key)
		clearMapping(t.Value)
	}
}

// Field returns the top-level field with the name (case-insensitively),
// or nil.
func (s *Snapshot) Field(name string) *Field {
	for _, f := range s.Schema.Fields {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

// IsPartition reports whether the top-level column is a partition column.
func (s *Snapshot) IsPartition(name string) bool {
	return isPartition(s.Metadata.PartitionColumns, name)
}

// checkpoint reads a checkpoint's actions, and the sidecars a V2
// checkpoint names.
func (r *replay) checkpoint(dir string, cp checkpoint) error {
	for _, name := range cp.files {
		p := join(dir, name)
		var err error
		if strings.HasSuffix(name, ".json") {
			var data []byte
			if data, err = r.st.readFile(p); err != nil {
				return fmt.Errorf("delta: %w", err)
			}
			err = parseActions(name, data, r.apply)
		} else {
			err = r.st.readParquetActions(p, r.apply)
		}
		if err != nil {
			return err
		}
	}
	sidecars := r.sidecars
	r.sidecars = nil
	// Sidecar paths are relative to _delta_log/_sidecars, or absolute.
	sr := &replay{root: join(dir, "_sidecars"), st: r.st}
	for _, sc := range sidecars {
		p, err := sr.resolve(sc)
		if err != nil {
			return fmt.Errorf("delta: sidecar: %w", err)
		}
		if err := r.st.readParquetActions(p, r.apply); err != nil {
			return err
		}
	}
	return nil
}

// checkpointColumns are the action columns of a checkpoint this reader
// uses.
var checkpointColumns = []string{"protocol", "metaData", "add", "remove", "sidecar", "checkpointMetadata"}

// readParquetActions reads a Parquet checkpoint (or sidecar) row by row:
// each row's non-null action column is turned back into the JSON action
// it stands for.
func (s storage) readParquetActions(path string, fn func(*action) error) error {
	f, err := s.openParquet(path)
	if err != nil {
		return fmt.Errorf("delta: checkpoint: %w", err)
	}
	defer f.Close()
	var cols []string
	for _, c := range checkpointColumns {
		if f.Schema.Lookup(c) != nil {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return fmt.Errorf("delta: checkpoint %s has no action columns", path)
	}
	rd, err := f.NewReader(file.ReaderOptions{Columns: cols})
	if err != nil {
		return fmt.Errorf("delta: checkpoint: %w", err)
	}
	row := int64(0)
	for {
		b, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("delta: checkpoint: %w", err)
		}
		for i := 0; i < b.NumRows; i++ {
			for c, fl := range b.Fields {
				v := value.Get(fl, b.Columns[c], i)
				if v == nil {
					continue
				}
				m, ok := v.(map[string]any)
				if !ok {
					continue
				}
				if err := fn(actionOf(cols[c], m)); err != nil {
					return fmt.Errorf("delta: checkpoint %s row %d: %w", path, row+int64(i), err)
				}
			}
		}
		row += int64(b.NumRows)
	}
}

// actionOf converts a checkpoint row's action column (a struct read as a
// map) into the action it stands for.
func actionOf(col string, m map[string]any) *action {
	a := &action{}
	switch col {
	case "add", "remove":
		fa := &fileAction{Path: str(m["path"]), Size: num(m["size"]), ModificationTime: num(m["modificationTime"])}
		if b, ok := m["dataChange"].(bool); ok {
			fa.DataChange = b
		}
		if ts, ok := m["deletionTimestamp"]; ok && ts != nil {
			t := num(ts)
			fa.DeletionTimestamp = &t
		}
		if pv, ok := m["partitionValues"].(map[string]any); ok {
			fa.PartitionValues = make(map[string]*string, len(pv))
			for k, v := range pv {
				if v == nil {
					fa.PartitionValues[k] = nil
				} else {
					s := str(v)
					fa.PartitionValues[k] = &s
				}
			}
		}
		if st, ok := m["stats"]; ok && st != nil {
			s := str(st)
			fa.Stats = &s
		}
		if d, ok := m["deletionVector"].(map[string]any); ok {
			desc := &dv.Descriptor{StorageType: str(d["storageType"]), PathOrInlineDv: str(d["pathOrInlineDv"]),
				SizeInBytes: int32(num(d["sizeInBytes"])), Cardinality: num(d["cardinality"])}
			if off, ok := d["offset"]; ok && off != nil {
				o := int32(num(off))
				desc.Offset = &o
			}
			fa.DeletionVector = desc
		}
		if col == "add" {
			a.Add = fa
		} else {
			a.Remove = fa
		}
	case "metaData":
		md := &Metadata{ID: str(m["id"]), Name: str(m["name"]), Description: str(m["description"]), SchemaString: str(m["schemaString"])}
		if f, ok := m["format"].(map[string]any); ok {
			md.Format.Provider = str(f["provider"])
		}
		md.PartitionColumns = strs(m["partitionColumns"])
		if conf, ok := m["configuration"].(map[string]any); ok {
			md.Configuration = make(map[string]string, len(conf))
			for k, v := range conf {
				md.Configuration[k] = str(v)
			}
		}
		a.MetaData = md
	case "protocol":
		a.Protocol = &Protocol{MinReaderVersion: int(num(m["minReaderVersion"])), MinWriterVersion: int(num(m["minWriterVersion"])),
			ReaderFeatures: strs(m["readerFeatures"]), WriterFeatures: strs(m["writerFeatures"])}
	case "sidecar":
		a.Sidecar = &sidecar{Path: str(m["path"]), SizeInBytes: num(m["sizeInBytes"])}
	case "checkpointMetadata":
		a.CheckpointMetadata = &checkpointMetadata{Version: num(m["version"])}
	}
	return a
}

// str is a string or binary column's value as a string ("" for null).
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// num is an integer column's value (0 for null).
func num(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case int:
		return int64(x)
	}
	return 0
}

func strs(v any) []string {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(l))
	for i, x := range l {
		out[i] = str(x)
	}
	return out
}
