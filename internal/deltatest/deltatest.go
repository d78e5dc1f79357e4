// Package deltatest builds Delta Lake tables for tests: data files written
// with carquet's writer, JSON commits, and checkpoints (classic,
// multi-part, V2 with sidecars) written as the Delta protocol describes.
// It keeps its own simple account of the live files, so that tests can
// compare what the reader reconstructs with what was written.
package deltatest

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/writer"
)

// Add is an add action.
type Add struct {
	Path             string             `json:"path"`
	PartitionValues  map[string]*string `json:"partitionValues"`
	Size             int64              `json:"size"`
	ModificationTime int64              `json:"modificationTime"`
	DataChange       bool               `json:"dataChange"`
	Stats            string             `json:"stats,omitempty"`
	DeletionVector   *dv.Descriptor     `json:"deletionVector,omitempty"`
}

// Remove is a remove action.
type Remove struct {
	Path              string         `json:"path"`
	DeletionTimestamp int64          `json:"deletionTimestamp"`
	DataChange        bool           `json:"dataChange"`
	DeletionVector    *dv.Descriptor `json:"deletionVector,omitempty"`
}

// Protocol is a protocol action.
type Protocol struct {
	MinReaderVersion int32    `json:"minReaderVersion"`
	MinWriterVersion int32    `json:"minWriterVersion"`
	ReaderFeatures   []string `json:"readerFeatures,omitempty"`
	WriterFeatures   []string `json:"writerFeatures,omitempty"`
}

// MetaData is a metaData action.
type MetaData struct {
	ID               string            `json:"id"`
	Format           map[string]any    `json:"format"`
	SchemaString     string            `json:"schemaString"`
	PartitionColumns []string          `json:"partitionColumns"`
	Configuration    map[string]string `json:"configuration"`
	CreatedTime      int64             `json:"createdTime"`
}

// Table is a Delta table being built.
type Table struct {
	tb       testing.TB
	Root     string
	Version  int64 // the last commit, -1 before the first
	protocol *Protocol
	metaData *MetaData
	live     map[string]*Add
	removed  map[string]*Remove
}

// New starts a table at root (created if needed).
func New(tb testing.TB, root string) *Table {
	tb.Helper()
	if err := os.MkdirAll(filepath.Join(root, "_delta_log"), 0o755); err != nil {
		tb.Fatal(err)
	}
	return &Table{tb: tb, Root: root, Version: -1, live: map[string]*Add{}, removed: map[string]*Remove{}}
}

// Str returns a pointer to s (partition values).
func Str(s string) *string { return &s }

// NewMetaData describes a table with the schema (Delta's JSON form).
func NewMetaData(schema any, partitionColumns []string, conf map[string]string) *MetaData {
	b, err := json.Marshal(schema)
	if err != nil {
		panic(err)
	}
	if partitionColumns == nil {
		partitionColumns = []string{}
	}
	if conf == nil {
		conf = map[string]string{}
	}
	return &MetaData{ID: "00000000-0000-4000-8000-000000000001", Format: map[string]any{"provider": "parquet", "options": map[string]string{}},
		SchemaString: string(b), PartitionColumns: partitionColumns, Configuration: conf, CreatedTime: 1700000000000}
}

// StructField is one field of a Delta schema in its JSON form.
func StructField(name string, typ any, nullable bool, metadata map[string]any) map[string]any {
	if metadata == nil {
		metadata = map[string]any{}
	}
	return map[string]any{"name": name, "type": typ, "nullable": nullable, "metadata": metadata}
}

// Struct is a Delta struct type in its JSON form.
func Struct(fields ...map[string]any) map[string]any {
	return map[string]any{"type": "struct", "fields": fields}
}

// Column is a column of a data file: its Parquet field and, for
// statistics, its name in the stats (the physical name).
type Column struct {
	Field writer.Field
	Name  string
}

// DataFile writes a Parquet file at rel (a path relative to the root,
// before URL encoding) and returns its add action, with statistics
// computed from the rows: numRecords, and minValues, maxValues and
// nullCount of int32, int64, float64, string and time.Time (as a date)
// columns.
func (t *Table) DataFile(rel string, cols []Column, rows [][]any, partition map[string]*string, opts ...writer.Option) *Add {
	t.tb.Helper()
	p := filepath.Join(t.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.tb.Fatal(err)
	}
	fields := make([]writer.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.Field
	}
	size := t.writeParquet(p, fields, rows, opts...)
	if partition == nil {
		partition = map[string]*string{}
	}
	return &Add{Path: escape(rel), PartitionValues: partition, Size: size, ModificationTime: 1700000000000,
		DataChange: true, Stats: stats(cols, rows)}
}

// escape URL-encodes the characters of a relative path that Delta writers
// encode (enough for the tests: space, %, =, :).
func escape(rel string) string {
	out := make([]byte, 0, len(rel))
	for i := 0; i < len(rel); i++ {
		c := rel[i]
		switch c {
		case ' ', '%', ':', '#', '?':
			out = append(out, fmt.Sprintf("%%%02X", c)...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

func stats(cols []Column, rows [][]any) string {
	mins, maxs, nulls := map[string]any{}, map[string]any{}, map[string]any{}
	for i, c := range cols {
		var lo, hi any
		n := 0
		for _, r := range rows {
			v := r[i]
			if v == nil {
				n++
				continue
			}
			switch x := v.(type) {
			case int32:
				v = int64(x)
			case int:
				v = int64(x)
			case time.Time:
				v = x.UTC().Format("2006-01-02")
			case int64, float64, string:
			default:
				v = nil
			}
			if v == nil {
				lo, hi = nil, nil
				break
			}
			if lo == nil || less(v, lo) {
				lo = v
			}
			if hi == nil || less(hi, v) {
				hi = v
			}
		}
		nulls[c.Name] = n
		if lo != nil {
			mins[c.Name], maxs[c.Name] = lo, hi
		}
	}
	b, _ := json.Marshal(map[string]any{"numRecords": len(rows), "minValues": mins, "maxValues": maxs, "nullCount": nulls})
	return string(b)
}

func less(a, b any) bool {
	switch x := a.(type) {
	case int64:
		return x < b.(int64)
	case float64:
		return x < b.(float64)
	case string:
		return x < b.(string)
	}
	return false
}

func key(path string, d *dv.Descriptor) string {
	if d == nil {
		return path
	}
	return path + "|" + d.UniqueID()
}

// Commit writes the next version with the actions (*Add, *Remove,
// *Protocol, *MetaData, or any value marshalled as is) and returns it.
func (t *Table) Commit(actions ...any) int64 {
	t.tb.Helper()
	v := t.Version + 1
	var lines []byte
	for _, a := range actions {
		var wrapped any
		switch x := a.(type) {
		case *Add:
			wrapped = map[string]any{"add": x}
			t.live[key(x.Path, x.DeletionVector)] = x
			delete(t.removed, key(x.Path, x.DeletionVector))
		case *Remove:
			wrapped = map[string]any{"remove": x}
			delete(t.live, key(x.Path, x.DeletionVector))
			t.removed[key(x.Path, x.DeletionVector)] = x
		case *Protocol:
			wrapped = map[string]any{"protocol": x}
			t.protocol = x
		case *MetaData:
			wrapped = map[string]any{"metaData": x}
			t.metaData = x
		default:
			wrapped = x
		}
		b, err := json.Marshal(wrapped)
		if err != nil {
			t.tb.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	info, _ := json.Marshal(map[string]any{"commitInfo": map[string]any{"timestamp": 1700000000000 + v, "operation": "WRITE"}})
	lines = append(append(lines, info...), '\n')
	name := filepath.Join(t.Root, "_delta_log", fmt.Sprintf("%020d.json", v))
	if err := os.WriteFile(name, lines, 0o644); err != nil {
		t.tb.Fatal(err)
	}
	t.Version = v
	return v
}

// RemoveOf is the remove action that takes an add out of the table.
func RemoveOf(a *Add) *Remove {
	return &Remove{Path: a.Path, DeletionTimestamp: 1700000000001, DataChange: true, DeletionVector: a.DeletionVector}
}

// DeleteRows commits deletion vectors: every add is removed and added
// again with its bitmap as an on-disk deletion vector (one file holds
// them all). It returns the new adds.
func (t *Table) DeleteRows(adds []*Add, bitmaps []*dv.Bitmap) []*Add {
	t.tb.Helper()
	descs, err := dv.WriteFile(t.Root, "", bitmaps)
	if err != nil {
		t.tb.Fatal(err)
	}
	var acts []any
	var out []*Add
	for i, a := range adds {
		na := *a
		na.DeletionVector = &descs[i]
		acts = append(acts, RemoveOf(a), &na)
		out = append(out, &na)
	}
	t.Commit(acts...)
	return out
}

// Live returns the adds live at the last commit, by path.
func (t *Table) Live() []*Add {
	out := make([]*Add, 0, len(t.live))
	for _, a := range t.live {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		return key(out[i].Path, out[i].DeletionVector) < key(out[j].Path, out[j].DeletionVector)
	})
	return out
}

// Checkpoint kinds.
const (
	Classic   = "classic"
	MultiPart = "multipart"
	V2JSON    = "v2json"    // a UUID-named JSON checkpoint with Parquet sidecars
	V2Parquet = "v2parquet" // a UUID-named Parquet checkpoint with Parquet sidecars
)

func dvField(name string) writer.Field {
	return writer.Group(name, writer.String("storageType"), writer.String("pathOrInlineDv"), writer.Int32("offset"),
		writer.Int32("sizeInBytes"), writer.Int64("cardinality"))
}

func strMap(name string) writer.Field {
	return writer.Map(name, writer.String("key").Required(), writer.String("value"))
}

func addField() writer.Field {
	return writer.Group("add", writer.String("path"), strMap("partitionValues"), writer.Int64("size"),
		writer.Int64("modificationTime"), writer.Bool("dataChange"), writer.String("stats"), dvField("deletionVector"))
}

func removeField() writer.Field {
	return writer.Group("remove", writer.String("path"), writer.Int64("deletionTimestamp"), writer.Bool("dataChange"), dvField("deletionVector"))
}

func metaDataField() writer.Field {
	return writer.Group("metaData", writer.String("id"), writer.String("name"), writer.String("description"),
		writer.Group("format", writer.String("provider"), strMap("options")), writer.String("schemaString"),
		writer.List("partitionColumns", writer.String("element")), strMap("configuration"), writer.Int64("createdTime"))
}

func protocolField() writer.Field {
	return writer.Group("protocol", writer.Int32("minReaderVersion"), writer.Int32("minWriterVersion"),
		writer.List("readerFeatures", writer.String("element")), writer.List("writerFeatures", writer.String("element")))
}

func dvRow(d *dv.Descriptor) any {
	if d == nil {
		return nil
	}
	var off any
	if d.Offset != nil {
		off = *d.Offset
	}
	return map[string]any{"storageType": d.StorageType, "pathOrInlineDv": d.PathOrInlineDv, "offset": off,
		"sizeInBytes": d.SizeInBytes, "cardinality": d.Cardinality}
}

func addRow(a *Add) map[string]any {
	pv := map[string]any{}
	for k, v := range a.PartitionValues {
		if v == nil {
			pv[k] = nil
		} else {
			pv[k] = *v
		}
	}
	var st any
	if a.Stats != "" {
		st = a.Stats
	}
	return map[string]any{"path": a.Path, "partitionValues": pv, "size": a.Size, "modificationTime": a.ModificationTime,
		"dataChange": false, "stats": st, "deletionVector": dvRow(a.DeletionVector)}
}

func removeRow(r *Remove) map[string]any {
	return map[string]any{"path": r.Path, "deletionTimestamp": r.DeletionTimestamp, "dataChange": false, "deletionVector": dvRow(r.DeletionVector)}
}

func strList(s []string) any {
	if s == nil {
		return nil
	}
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func (t *Table) metaRows() (protocolRow, metaRow map[string]any) {
	p, m := t.protocol, t.metaData
	protocolRow = map[string]any{"minReaderVersion": p.MinReaderVersion, "minWriterVersion": p.MinWriterVersion,
		"readerFeatures": strList(p.ReaderFeatures), "writerFeatures": strList(p.WriterFeatures)}
	conf := map[string]any{}
	for k, v := range m.Configuration {
		conf[k] = v
	}
	metaRow = map[string]any{"id": m.ID, "name": nil, "description": nil,
		"format": map[string]any{"provider": "parquet", "options": map[string]any{}}, "schemaString": m.SchemaString,
		"partitionColumns": strList(m.PartitionColumns), "configuration": conf, "createdTime": m.CreatedTime}
	return
}

// fileRows are the checkpoint rows of the live adds and the remove
// tombstones, for a file whose columns are add and remove.
func (t *Table) fileRows() [][]any {
	var rows [][]any
	for _, a := range t.Live() {
		rows = append(rows, []any{addRow(a), nil})
	}
	var rk []string
	for k := range t.removed {
		rk = append(rk, k)
	}
	sort.Strings(rk)
	for _, k := range rk {
		rows = append(rows, []any{nil, removeRow(t.removed[k])})
	}
	return rows
}

func (t *Table) writeParquet(path string, fields []writer.Field, rows [][]any, opts ...writer.Option) int64 {
	t.tb.Helper()
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		t.tb.Fatal(err)
	}
	w, err := writer.Create(path, sch, opts...)
	if err != nil {
		t.tb.Fatal(err)
	}
	if len(rows) > 0 {
		if err := w.WriteRows(rows); err != nil {
			t.tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.tb.Fatal(err)
	}
	return st.Size()
}

func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0F | 0x40
	b[8] = b[8]&0x3F | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Checkpoint writes a checkpoint of the last version, of the kind given
// (parts is the number of parts of a multi-part checkpoint, or of sidecars
// of a V2 checkpoint), and points _last_checkpoint at it.
func (t *Table) Checkpoint(kind string, parts int) {
	t.tb.Helper()
	log := filepath.Join(t.Root, "_delta_log")
	v := t.Version
	pr, mr := t.metaRows()
	files := t.fileRows()
	all := []writer.Field{protocolField(), metaDataField(), addField(), removeField()}
	withMeta := func(rows [][]any) [][]any {
		out := [][]any{{pr, nil, nil, nil}, {nil, mr, nil, nil}}
		for _, r := range rows {
			out = append(out, []any{nil, nil, r[0], r[1]})
		}
		return out
	}
	size := int64(0)
	switch kind {
	case Classic:
		size = t.writeParquet(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.parquet", v)), all, withMeta(files))
	case MultiPart:
		for i := 1; i <= parts; i++ {
			var share [][]any
			for j := i - 1; j < len(files); j += parts {
				share = append(share, files[j])
			}
			rows := [][]any{}
			for _, r := range share {
				rows = append(rows, []any{nil, nil, r[0], r[1]})
			}
			if i == 1 {
				rows = withMeta(share)
			}
			t.writeParquet(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.%010d.%010d.parquet", v, i, parts)), all, rows)
		}
	case V2JSON, V2Parquet:
		if err := os.MkdirAll(filepath.Join(log, "_sidecars"), 0o755); err != nil {
			t.tb.Fatal(err)
		}
		var sidecars []map[string]any
		for i := 0; i < parts; i++ {
			var share [][]any
			for j := i; j < len(files); j += parts {
				share = append(share, files[j])
			}
			name := uuid() + ".parquet"
			sz := t.writeParquet(filepath.Join(log, "_sidecars", name), []writer.Field{addField(), removeField()}, share)
			sidecars = append(sidecars, map[string]any{"path": name, "sizeInBytes": sz, "modificationTime": int64(1700000000000)})
		}
		cpName := fmt.Sprintf("%020d.checkpoint.%s.", v, uuid())
		if kind == V2JSON {
			var lines []byte
			for _, a := range []any{
				map[string]any{"checkpointMetadata": map[string]any{"version": v}},
				map[string]any{"protocol": t.protocol}, map[string]any{"metaData": t.metaData},
			} {
				b, _ := json.Marshal(a)
				lines = append(append(lines, b...), '\n')
			}
			for _, sc := range sidecars {
				b, _ := json.Marshal(map[string]any{"sidecar": sc})
				lines = append(append(lines, b...), '\n')
			}
			if err := os.WriteFile(filepath.Join(log, cpName+"json"), lines, 0o644); err != nil {
				t.tb.Fatal(err)
			}
		} else {
			fields := []writer.Field{writer.Group("checkpointMetadata", writer.Int64("version")), protocolField(), metaDataField(),
				writer.Group("sidecar", writer.String("path"), writer.Int64("sizeInBytes"), writer.Int64("modificationTime"))}
			rows := [][]any{{map[string]any{"version": v}, nil, nil, nil}, {nil, pr, nil, nil}, {nil, nil, mr, nil}}
			for _, sc := range sidecars {
				rows = append(rows, []any{nil, nil, nil, map[string]any(sc)})
			}
			t.writeParquet(filepath.Join(log, cpName+"parquet"), fields, rows)
		}
	default:
		t.tb.Fatalf("unknown checkpoint kind %q", kind)
	}
	lc := map[string]any{"version": v, "size": len(files) + 2}
	if kind == MultiPart {
		lc["parts"] = parts
	}
	if size > 0 {
		lc["sizeInBytes"] = size
	}
	b, _ := json.Marshal(lc)
	if err := os.WriteFile(filepath.Join(log, "_last_checkpoint"), b, 0o644); err != nil {
		t.tb.Fatal(err)
	}
}
