package main

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/internal/statvalue"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/scan"
)

// openFile opens a Parquet file: a local path or an object store URL.
func openFile(path string) (*file.File, error) {
	return scan.OpenFile(path, scan.Options{})
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// schemaSource opens PATH for the commands that describe a schema: a file
// directly, a folder or glob through scan (its first file's schema plus
// the hive partition columns).
func schemaSource(path string) (f *file.File, parts []scan.Column, files int, closeFn func(), err error) {
	if isFile(path) {
		f, err := openFile(path)
		if err != nil {
			return nil, nil, 0, nil, err
		}
		return f, nil, 1, func() { f.Close() }, nil
	}
	t, err := scan.Open(path, scan.Options{})
	if err != nil {
		return nil, nil, 0, nil, err
	}
	f, err = t.File(0)
	if err != nil {
		t.Close()
		return nil, nil, 0, nil, err
	}
	for _, c := range t.Columns {
		if c.Partition {
			parts = append(parts, c)
		}
	}
	return f, parts, len(t.Files), func() { t.Close() }, nil
}

// expandFiles turns folder and glob arguments into the Parquet files they
// hold (in scan's order); files stay as they are.
func expandFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if isFile(a) {
			out = append(out, a)
			continue
		}
		t, err := scan.Open(a, scan.Options{})
		if err != nil {
			return nil, err
		}
		for _, f := range t.Files {
			out = append(out, f.Path)
		}
		t.Close()
	}
	return out, nil
}

func partitionType(c scan.Column) string {
	if c.PartitionType == scan.PartitionInt64 {
		return "BIGINT"
	}
	return "VARCHAR"
}

func runSchema(e *env, args []string) error {
	fs := newFlags(e, "schema", "schema [--json] PATH",
		"Print the schema of a Parquet file in the `message schema { ... }` form,\nor as JSON. For a folder or glob: its first file's schema and the hive\npartition columns.",
		`pqsql schema data/events.parquet
		 pqsql schema --json data/events.parquet | jq '.fields[].name'`)
	asJSON := fs.Bool("json", false, "machine-readable output")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	f, parts, files, closeFn, err := schemaSource(pos[0])
	if err != nil {
		return err
	}
	defer closeFn()
	if *asJSON {
		lfs, err := f.Schema.LogicalFields()
		if err != nil {
			return err
		}
		out := map[string]any{"path": pos[0], "files": files, "num_leaves": len(f.Schema.Leaves)}
		var fields []any
		for i, n := range f.Schema.Fields() {
			var lf *schema.Field
			if i < len(lfs) {
				lf = lfs[i]
			}
			fields = append(fields, nodeJSON(n, lf))
		}
		out["fields"] = fields
		if len(parts) > 0 {
			var ps []any
			for _, c := range parts {
				ps = append(ps, map[string]any{"name": c.Name, "sql_type": partitionType(c)})
			}
			out["partition_columns"] = ps
		}
		return writeJSON(e.stdout, out)
	}
	if files > 1 || len(parts) > 0 {
		fmt.Fprintf(e.stdout, "-- %d files; schema of %s\n", files, f.Name())
		for _, c := range parts {
			fmt.Fprintf(e.stdout, "-- partition column %s %s\n", c.Name, partitionType(c))
		}
	}
	fmt.Fprint(e.stdout, f.Schema.String())
	if s := f.Schema.String(); !strings.HasSuffix(s, "\n") {
		fmt.Fprintln(e.stdout)
	}
	return nil
}

// nodeJSON describes a schema node (lf, its logical field, may be nil).
func nodeJSON(n *schema.Node, lf *schema.Field) map[string]any {
	m := map[string]any{
		"name":       n.Name,
		"path":       n.PathString(),
		"repetition": n.Repetition.String(),
	}
	if lf != nil {
		m["sql_type"] = sqlType(lf)
		m["nullable"] = lf.Nullable
	}
	if a := schema.AnnotationString(n); a != "" {
		m["logical_type"] = a
	}
	if n.Converted.Set {
		m["converted_type"] = n.Converted.Value.String()
	}
	if n.FieldID.Set {
		m["field_id"] = n.FieldID.Value
	}
	if n.IsLeaf() {
		m["physical_type"] = n.Physical.String()
		if n.Physical == format.FixedLenByteArray {
			m["type_length"] = n.TypeLength
		}
		m["column"] = n.Column
		m["max_definition_level"] = n.MaxDef
		m["max_repetition_level"] = n.MaxRep
		return m
	}
	var kids []any
	for _, c := range n.Children {
		kids = append(kids, nodeJSON(c, childField(lf, c)))
	}
	m["children"] = kids
	return m
}

// childField finds the logical field of physical child c below lf, when
// the logical tree has one by the same name (structs).
func childField(lf *schema.Field, c *schema.Node) *schema.Field {
	if lf == nil || lf.Kind != schema.Struct {
		return nil
	}
	for _, k := range lf.Children {
		if k.Node == c {
			return k
		}
	}
	return nil
}

func runColumns(e *env, args []string) error {
	fs := newFlags(e, "columns", "columns [flags] PATH",
		"List the leaf columns of a Parquet file (for a folder or glob: of its first\nfile, plus the hive partition columns) with their physical and logical\ntypes, repetition and maximum levels.",
		`pqsql columns data/events.parquet
		 pqsql columns --json data/`)
	of := fs.outputFlags()
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	opts, err := of.options(e)
	if err != nil {
		return err
	}
	f, parts, _, closeFn, err := schemaSource(pos[0])
	if err != nil {
		return err
	}
	defer closeFn()
	w := output.New(e.stdout, opts)
	w.Begin([]output.Column{{Name: "column", Type: "BIGINT"}, {Name: "path"}, {Name: "physical_type"},
		{Name: "logical_type"}, {Name: "sql_type"}, {Name: "repetition"},
		{Name: "max_def", Type: "BIGINT"}, {Name: "max_rep", Type: "BIGINT"}})
	for _, n := range f.Schema.Leaves {
		phys := n.Physical.String()
		if n.Physical == format.FixedLenByteArray {
			phys = fmt.Sprintf("%s(%d)", phys, n.TypeLength)
		}
		var logical any
		if a := schema.AnnotationString(n); a != "" {
			logical = a
		}
		w.Row([]any{int64(n.Column), n.PathString(), phys, logical, statvalue.SQLType(n), n.Repetition.String(), int64(n.MaxDef), int64(n.MaxRep)})
	}
	for _, c := range parts {
		w.Row([]any{nil, c.Name, nil, "hive partition", partitionType(c), "OPTIONAL", nil, nil})
	}
	return w.End()
}

// Column chunk description shared by info's text and JSON forms.
type chunkInfo struct {
	Path                 string   `json:"path"`
	Type                 string   `json:"physical_type"`
	Codec                string   `json:"codec"`
	Encodings            []string `json:"encodings"`
	NumValues            int64    `json:"num_values"`
	CompressedSize       int64    `json:"compressed_size"`
	UncompressedSize     int64    `json:"uncompressed_size"`
	Ratio                float64  `json:"compression_ratio"`
	DataPageOffset       int64    `json:"data_page_offset"`
	DictionaryPageOffset *int64   `json:"dictionary_page_offset,omitempty"`
	Statistics           bool     `json:"statistics"`
	ColumnIndex          bool     `json:"column_index"`
	OffsetIndex          bool     `json:"offset_index"`
	BloomFilter          bool     `json:"bloom_filter"`
	Encrypted            bool     `json:"encrypted,omitempty"`
}

type rowGroupInfo struct {
	Index          int         `json:"index"`
	NumRows        int64       `json:"num_rows"`
	TotalByteSize  int64       `json:"total_byte_size"`
	CompressedSize int64       `json:"compressed_size"`
	FileOffset     int64       `json:"file_offset"`
	Sorting        []string    `json:"sorting_columns,omitempty"`
	Columns        []chunkInfo `json:"columns"`
}

type fileInfo struct {
	File             string            `json:"file"`
	Size             int64             `json:"size"`
	FooterSize       int               `json:"footer_size"`
	CreatedBy        string            `json:"created_by"`
	Version          int32             `json:"version"`
	NumRows          int64             `json:"num_rows"`
	NumRowGroups     int               `json:"num_row_groups"`
	NumColumns       int               `json:"num_columns"`
	CompressedSize   int64             `json:"compressed_size"`
	UncompressedSize int64             `json:"uncompressed_size"`
	KeyValue         map[string]string `json:"key_value_metadata,omitempty"`
	RowGroups        []rowGroupInfo    `json:"row_groups"`
}

func ratio(unc, comp int64) float64 {
	if comp <= 0 {
		return 0
	}
	return float64(int64(float64(unc)/float64(comp)*100+0.5)) / 100
}

func describeFile(f *file.File) fileInfo {
	m := f.Meta
	fi := fileInfo{File: f.Name(), Size: f.Size(), FooterSize: len(f.FooterBytes()), CreatedBy: f.CreatedBy(),
		Version: m.Version, NumRows: f.NumRows(), NumRowGroups: f.NumRowGroups(), NumColumns: len(f.Schema.Leaves)}
	if len(m.KeyValueMetadata) > 0 {
		fi.KeyValue = map[string]string{}
		for _, kv := range m.KeyValueMetadata {
			fi.KeyValue[kv.Key] = kv.Value.Value
		}
	}
	for i, rg := range m.RowGroups {
		ri := rowGroupInfo{Index: i, NumRows: rg.NumRows, TotalByteSize: rg.TotalByteSize, CompressedSize: rg.TotalCompressedSize.Value}
		for _, sc := range rg.SortingColumns {
			p := fmt.Sprint(sc.ColumnIdx)
			if int(sc.ColumnIdx) < len(f.Schema.Leaves) && sc.ColumnIdx >= 0 {
				p = f.Schema.Leaves[sc.ColumnIdx].PathString()
			}
			if sc.Descending {
				p += " DESC"
			}
			ri.Sorting = append(ri.Sorting, p)
		}
		var comp int64
		for c, cc := range rg.Columns {
			ci := chunkInfo{Path: f.Schema.Leaves[c].PathString(), ColumnIndex: cc.ColumnIndexOffset.Set, OffsetIndex: cc.OffsetIndexOffset.Set}
			md := cc.MetaData
			if md == nil {
				ci.Encrypted = true
				ri.Columns = append(ri.Columns, ci)
				continue
			}
			ci.Type, ci.Codec = md.Type.String(), md.Codec.String()
			for _, en := range md.Encodings {
				ci.Encodings = append(ci.Encodings, en.String())
			}
			ci.NumValues, ci.CompressedSize, ci.UncompressedSize = md.NumValues, md.TotalCompressedSize, md.TotalUncompressedSize
			ci.Ratio = ratio(md.TotalUncompressedSize, md.TotalCompressedSize)
			ci.DataPageOffset = md.DataPageOffset
			if md.DictionaryPageOffset.Set {
				v := md.DictionaryPageOffset.Value
				ci.DictionaryPageOffset = &v
			}
			ci.Statistics = md.Statistics != nil
			ci.BloomFilter = md.BloomFilterOffset.Set
			comp += md.TotalCompressedSize
			fi.CompressedSize += md.TotalCompressedSize
			fi.UncompressedSize += md.TotalUncompressedSize
			if c == 0 {
				ri.FileOffset = md.DictionaryPageOffset.Or(md.DataPageOffset)
			}
			ri.Columns = append(ri.Columns, ci)
		}
		if rg.FileOffset.Set {
			ri.FileOffset = rg.FileOffset.Value
		}
		if ri.CompressedSize == 0 {
			ri.CompressedSize = comp
		}
		fi.RowGroups = append(fi.RowGroups, ri)
	}
	return fi
}

func runInfo(e *env, args []string) error {
	fs := newFlags(e, "info", "info [--json] [--row-groups] PATH...",
		"Describe Parquet files (a folder or glob: each of its files): size, created_by, key-value metadata, the columns\n(codec, encodings, sizes and compression ratio summed over the row groups)\nand, with --row-groups, every column chunk of every row group.",
		`pqsql info data/events.parquet
		 pqsql info --row-groups data/events.parquet
		 pqsql info --json data/events.parquet | jq '.row_groups[0].columns[].codec'`)
	asJSON := fs.Bool("json", false, "machine-readable output (always has every column chunk)")
	perRG := fs.Bool("row-groups", false, "list every column chunk of every row group")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, -1); err != nil {
		return err
	}
	files, err := expandFiles(pos)
	if err != nil {
		return err
	}
	var infos []fileInfo
	for _, p := range files {
		f, err := openFile(p)
		if err != nil {
			return err
		}
		infos = append(infos, describeFile(f))
		f.Close()
	}
	if *asJSON {
		if len(infos) == 1 {
			return writeJSON(e.stdout, infos[0])
		}
		return writeJSON(e.stdout, infos)
	}
	for i, fi := range infos {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		printInfo(e.stdout, fi, *perRG)
	}
	return nil
}

func printInfo(w io.Writer, fi fileInfo, perRG bool) {
	fmt.Fprintf(w, "file:        %s\n", fi.File)
	fmt.Fprintf(w, "size:        %d bytes (footer %d bytes)\n", fi.Size, fi.FooterSize)
	fmt.Fprintf(w, "created_by:  %s\n", fi.CreatedBy)
	fmt.Fprintf(w, "version:     %d\n", fi.Version)
	fmt.Fprintf(w, "rows:        %d\n", fi.NumRows)
	fmt.Fprintf(w, "row groups:  %d\n", fi.NumRowGroups)
	fmt.Fprintf(w, "columns:     %d\n", fi.NumColumns)
	fmt.Fprintf(w, "data:        %d bytes compressed, %d uncompressed (%.2fx)\n", fi.CompressedSize, fi.UncompressedSize, ratio(fi.UncompressedSize, fi.CompressedSize))
	keys := make([]string, 0, len(fi.KeyValue))
	for k := range fi.KeyValue {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.ReplaceAll(fi.KeyValue[k], "\n", " ")
		if len(v) > 80 {
			v = v[:77] + "..."
		}
		fmt.Fprintf(w, "meta:        %s = %s\n", k, v)
	}
	// Columns summed over the row groups.
	type sum struct {
		typ, codec string
		encs       []string
		comp, unc  int64
		values     int64
		ci, oi, bf int
	}
	var order []string
	sums := map[string]*sum{}
	for _, rg := range fi.RowGroups {
		for _, c := range rg.Columns {
			s := sums[c.Path]
			if s == nil {
				s = &sum{typ: c.Type, codec: c.Codec}
				sums[c.Path] = s
				order = append(order, c.Path)
			}
			if c.Codec != s.codec && !strings.Contains(s.codec, c.Codec) {
				s.codec += "," + c.Codec
			}
			for _, en := range c.Encodings {
				if !contains(s.encs, en) {
					s.encs = append(s.encs, en)
				}
			}
			s.comp += c.CompressedSize
			s.unc += c.UncompressedSize
			s.values += c.NumValues
			if c.ColumnIndex {
				s.ci++
			}
			if c.OffsetIndex {
				s.oi++
			}
			if c.BloomFilter {
				s.bf++
			}
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "column\ttype\tcodec\tvalues\tcompressed\tuncompressed\tratio\tindex\tbloom\tencodings\t")
	nrg := len(fi.RowGroups)
	for _, p := range order {
		s := sums[p]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%.2fx\t%s\t%s\t%s\t\n", p, s.typ, s.codec, s.values, s.comp, s.unc,
			ratio(s.unc, s.comp), presence(min(s.ci, s.oi), nrg), presence(s.bf, nrg), strings.Join(s.encs, ","))
	}
	tw.Flush()
	if !perRG {
		return
	}
	for _, rg := range fi.RowGroups {
		fmt.Fprintf(w, "\nrow group %d: %d rows, %d bytes compressed, %d uncompressed, at offset %d", rg.Index, rg.NumRows, rg.CompressedSize, rg.TotalByteSize, rg.FileOffset)
		if len(rg.Sorting) > 0 {
			fmt.Fprintf(w, ", sorted by %s", strings.Join(rg.Sorting, ", "))
		}
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "column\tcodec\tvalues\toffset\tcompressed\tuncompressed\tratio\tstats\tindex\tbloom\tencodings\t")
		for _, c := range rg.Columns {
			if c.Encrypted {
				fmt.Fprintf(tw, "%s\t(encrypted)\t\t\t\t\t\t\t\t\t\t\n", c.Path)
				continue
			}
			off := c.DataPageOffset
			if c.DictionaryPageOffset != nil {
				off = *c.DictionaryPageOffset
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.2fx\t%s\t%s\t%s\t%s\t\n", c.Path, c.Codec, c.NumValues, off,
				c.CompressedSize, c.UncompressedSize, c.Ratio, yesNo(c.Statistics), yesNo(c.ColumnIndex && c.OffsetIndex),
				yesNo(c.BloomFilter), strings.Join(c.Encodings, ","))
		}
		tw.Flush()
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// presence says in how many of n row groups something is present.
func presence(k, n int) string {
	switch {
	case k == 0:
		return "no"
	case k == n:
		return "yes"
	}
	return fmt.Sprintf("%d/%d", k, n)
}

func runMeta(e *env, args []string) error {
	fs := newFlags(e, "meta", "meta [--compact] FILE",
		"Print a file's footer (the Thrift FileMetaData) as JSON, field by field:\nsnake_case names, enums by name, absent optional fields left out, binary\nvalues (statistics, bloom-filter offsets aside) as base64.",
		`pqsql meta data/events.parquet
		 pqsql meta data/events.parquet | jq '.row_groups[0].columns[0].meta_data.statistics'`)
	compact := fs.Bool("compact", false, "one line of JSON")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	f, err := openFile(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	v := thriftJSON(reflect.ValueOf(f.Meta))
	if *compact {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", b)
		return err
	}
	return writeJSON(e.stdout, v)
}

// thriftJSON converts a parquet/format value into JSON-ready values by
// reflection: structs become objects with snake_case keys (absent
// optional fields and empty lists left out), Opt values their value,
// enums their name, []byte base64 (by encoding/json).
func thriftJSON(v reflect.Value) any {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.CanInterface() {
		if s, ok := v.Interface().(fmt.Stringer); ok && v.Kind() != reflect.Struct {
			return s.String()
		}
	}
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		if strings.HasPrefix(t.Name(), "Opt[") {
			if !v.FieldByName("Set").Bool() {
				return nil
			}
			return thriftJSON(v.FieldByName("Value"))
		}
		out := orderedObject{}
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if !sf.IsExported() || sf.Name == "Extension" {
				continue
			}
			fv := v.Field(i)
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Pointer) && fv.IsNil() {
				continue
			}
			x := thriftJSON(fv)
			if x == nil {
				continue
			}
			out = append(out, kv{snake(sf.Name), x})
		}
		return out
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = thriftJSON(v.Index(i))
		}
		return out
	}
	return v.Interface()
}

type kv struct {
	k string
	v any
}

// orderedObject is a JSON object that keeps its keys in field order.
type orderedObject []kv

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// snake turns a Go field name into the Thrift field's snake_case name
// (TotalCompressedSize → total_compressed_size, CRC → crc).
func snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) {
			if i > 0 && (unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]) && unicode.IsUpper(r[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
