package scan

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// deltaState is what a table read from a Delta log keeps: the snapshot,
// the add action of each file (parallel to Table.Files), and the deletion
// vectors loaded so far.
type deltaState struct {
	snap *delta.Snapshot
	adds []*delta.AddFile
	mu   sync.Mutex
	dvs  map[int]*dvEntry
}

type dvEntry struct {
	once sync.Once
	bm   *dv.Bitmap
	err  error
}

// Snapshot returns the Delta snapshot the table was opened at, nil for a
// table that is not a Delta table.
func (t *Table) Snapshot() *delta.Snapshot {
	if t.delta == nil {
		return nil
	}
	return t.delta.snap
}

// openDelta makes a table of a Delta snapshot: its files come from the
// log, its columns (and their types) from the log's schema, partition
// values from the add actions.
func openDelta(path string, opts Options) (*Table, error) {
	version := int64(-1)
	if opts.DeltaVersion != nil {
		version = *opts.DeltaVersion
		if version < 0 {
			return nil, fmt.Errorf("%s: Delta version %d: versions start at 0", path, version)
		}
	}
	snap, err := delta.OpenWith(path, version, opts.Store)
	if err != nil {
		return nil, err
	}
	sch, err := snap.Schema.ParquetSchema()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t := &Table{Name: tableName(path), Path: path, opts: opts, open: map[string]*file.File{},
		delta: &deltaState{snap: snap, adds: snap.Files, dvs: map[int]*dvEntry{}}}
	for i, fl := range fields {
		df := snap.Schema.Fields[i]
		c := Column{Name: fl.Name, Field: fl}
		if snap.IsPartition(fl.Name) {
			if fl.Kind != schema.Primitive {
				return nil, fmt.Errorf("%s: partition column %q is not of a primitive type", path, fl.Name)
			}
			c.Partition = true
			switch df.Type.Name {
			case "long", "integer", "short", "byte":
				c.PartitionType = PartitionInt64
			}
		}
		t.Columns = append(t.Columns, c)
	}
	for _, a := range snap.Files {
		if err := opts.Root.Check(a.Path, false); err != nil {
			return nil, fmt.Errorf("%s: file %s: %w", path, a.URI, err)
		}
		if d := a.DeletionVector; d != nil && d.StorageType != dv.StorageInline {
			p, err := d.AbsolutePath(snap.Root)
			if err != nil {
				return nil, fmt.Errorf("%s: deletion vector of %s: %w", path, a.URI, err)
			}
			if err := opts.Root.Check(p, false); err != nil {
				return nil, fmt.Errorf("%s: deletion vector of %s: %w", path, a.URI, err)
			}
		}
		ref := FileRef{Path: a.Path, Size: a.Size}
		for i := range t.Columns {
			c := &t.Columns[i]
			if !c.Partition {
				continue
			}
			if ref.Partition == nil {
				ref.Partition = map[string]any{}
			}
			df := snap.Schema.Fields[i]
			raw, ok := a.PartitionValues[df.PhysicalName]
			if !ok {
				raw = a.PartitionValues[df.Name]
			}
			v, err := partitionValue(df.Type, raw)
			if err != nil {
				return nil, fmt.Errorf("%s: file %s: partition column %q: %w", path, a.URI, c.Name, err)
			}
			ref.Partition[c.Name] = v
		}
		t.Files = append(t.Files, ref)
	}
	return t, nil
}

// partitionValue parses a serialized partition value by the column's
// Delta type into the Go value predicates compare with.
func partitionValue(t *delta.Type, raw *string) (any, error) {
	if raw == nil {
		return nil, nil
	}
	s := *raw
	if s == "" && t.Name != "string" && t.Name != "binary" {
		return nil, nil // the empty string serializes null for other types
	}
	switch t.Name {
	case "string", "binary":
		return s, nil
	case "long", "integer", "short", "byte":
		return strconv.ParseInt(s, 10, 64)
	case "float", "double":
		return strconv.ParseFloat(s, 64)
	case "boolean":
		return strconv.ParseBool(s)
	case "date", "timestamp", "timestamp_ntz":
		tm, ok := parseTimeLiteral(s)
		if !ok {
			return nil, fmt.Errorf("%q is not a %s", s, t.Name)
		}
		return tm, nil
	case "decimal":
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return nil, fmt.Errorf("%q is not a decimal", s)
		}
		scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
		if !scaled.IsInt() {
			return nil, fmt.Errorf("%q has more than %d decimals", s, t.Scale)
		}
		return value.Decimal{Unscaled: new(big.Int).Set(scaled.Num()), Scale: int32(t.Scale)}, nil
	}
	return nil, fmt.Errorf("partition values of type %s are not supported", t.Name)
}

// constFieldVector is a typed partition column's vector: its value in
// every row, in the physical representation of the column's field.
func constFieldVector(f *schema.Field, val any, n int) *vector.Vector {
	v := &vector.Vector{}
	fillNull(v, f, n)
	if val == nil {
		return v
	}
	v.Valid = nil
	ci := describe(f.Node)
	switch v.Kind {
	case vector.Bool:
		b, _ := val.(bool)
		for i := range v.Bools {
			v.Bools[i] = b
		}
	case vector.Int32, vector.Int64:
		var x int64
		switch y := val.(type) {
		case int64:
			x = y
		case time.Time:
			bd, _ := bindTime(ci, y)
			x = bd.i
		case value.Decimal:
			x = y.Unscaled.Int64()
		}
		if v.Kind == vector.Int32 {
			for i := range v.Int32s {
				v.Int32s[i] = int32(x)
			}
		} else {
			for i := range v.Int64s {
				v.Int64s[i] = x
			}
		}
	case vector.Float32, vector.Float64:
		x, _ := val.(float64)
		for i := range v.Float32s {
			v.Float32s[i] = float32(x)
		}
		for i := range v.Float64s {
			v.Float64s[i] = x
		}
	case vector.FixedLenByteArray:
		d, _ := val.(value.Decimal)
		one := twosComplement(d.Unscaled, v.Width)
		v.Data = v.Data[:0]
		for i := 0; i < n; i++ {
			v.Data = append(v.Data, one...)
		}
	case vector.ByteArray:
		s, _ := val.(string)
		v.Data = make([]byte, 0, n*len(s))
		for i := 0; i < n; i++ {
			v.Data = append(v.Data, s...)
			v.Offsets[i+1] = int32(len(v.Data))
		}
	}
	return v
}

// twosComplement writes x big-endian in width bytes.
func twosComplement(x *big.Int, width int) []byte {
	out := make([]byte, width)
	if x == nil {
		return out
	}
	u := new(big.Int).Set(x)
	if u.Sign() < 0 {
		u.Add(u, new(big.Int).Lsh(big.NewInt(1), uint(8*width)))
	}
	b := u.Bytes()
	if len(b) > width {
		b = b[len(b)-width:]
	}
	copy(out[width-len(b):], b)
	return out
}

// physicalPath returns the path of a table column (top-level name or
// dotted struct path) in a data file: the same for a table without column
// mapping, the physical names in name mode, the nodes with the fields' ids
// in id mode. ok is false when the file does not hold the column.
func (t *Table) physicalPath(f *file.File, name string) (string, bool) {
	if t.delta == nil || t.delta.snap.ColumnMapping == "none" {
		return name, true
	}
	parts := strings.Split(name, ".")
	fields := t.delta.snap.Schema.Fields
	byID := t.delta.snap.ColumnMapping == "id"
	var node *schema.Node
	if byID {
		node = f.Schema.Root
	}
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		var df *delta.Field
		for _, c := range fields {
			if c.Name == p {
				df = c
				break
			}
		}
		if df == nil {
			for _, c := range fields {
				if strings.EqualFold(c.Name, p) {
					df = c
					break
				}
			}
		}
		if df == nil {
			return "", false
		}
		phys := df.PhysicalName
		if byID && df.ID != 0 && node != nil {
			// By field id; a file without any ids at this level (written
			// before the table mapped columns) is matched by name.
			var found *schema.Node
			ids := false
			for _, c := range node.Children {
				ids = ids || c.FieldID.Set
				if c.FieldID.Set && c.FieldID.Value == df.ID {
					found = c
					break
				}
			}
			if found == nil && !ids {
				for _, c := range node.Children {
					if c.Name == phys {
						found = c
						break
					}
				}
			}
			if found == nil {
				return "", false
			}
			phys, node = found.Name, found
		}
		out = append(out, phys)
		if i < len(parts)-1 {
			if df.Type.Name != "struct" {
				return "", false
			}
			fields = df.Type.Fields
		}
	}
	return strings.Join(out, "."), true
}

// deltaCompatible checks that a data file's column can be read as the
// type the Delta schema gives it: the same shape, and the same physical
// type or one the readers convert (INT32 widened to INT64, INT96
// timestamps, decimals in any of their physical forms).
func deltaCompatible(tf, ff *schema.Field) error {
	if tf.Kind != ff.Kind {
		return fmt.Errorf("the file holds a %s where the Delta schema has a %s", ff.Kind, tf.Kind)
	}
	if tf.Kind != schema.Primitive {
		return nil // fields are matched by name when read (conform)
	}
	tp, fp := tf.Node.Physical, ff.Node.Physical
	tl, fl := tf.Node.Logical, ff.Node.Logical
	switch {
	case tp == fp:
	case tp == format.Int64 && fp == format.Int32:
	case tp == format.Int64 && fp == format.Int96 && tl != nil && tl.Timestamp != nil:
	case tl != nil && tl.Decimal != nil && (fl != nil && fl.Decimal != nil || ff.Node.Converted.Set && ff.Node.Converted.Value == format.Decimal):
	default:
		want := fmt.Sprint(tp)
		if a := schema.AnnotationString(tf.Node); a != "" {
			want += " " + a
		}
		return fmt.Errorf("the file stores %v where the Delta schema says %s", fp, want)
	}
	return nil
}

// conform brings a file's vector of a nested column to the shape of the
// table's field: struct fields are matched by physical name (by field id
// in id mode), fields the file lacks read as NULL, fields the table no
// longer has are dropped, INT32 leaves widen to INT64. Child vectors are
// reused, not copied.
func (t *Table) conform(tf *schema.Field, dt *delta.Type, ff *schema.Field, v *vector.Vector) *vector.Vector {
	switch tf.Kind {
	case schema.Primitive:
		if ff.Kind == schema.Primitive && tf.Node.Physical == format.Int64 && ff.Node.Physical == format.Int32 {
			w := &vector.Vector{Kind: vector.Int64, Len: v.Len, Valid: v.Valid, Int64s: make([]int64, v.Len)}
			for i, x := range v.Int32s[:v.Len] {
				w.Int64s[i] = int64(x)
			}
			return w
		}
		return v
	case schema.Struct:
		if ff.Kind != schema.Struct || dt.Name != "struct" {
			return v
		}
		out := *v
		out.Children = make([]*vector.Vector, len(tf.Children))
		for i, tc := range tf.Children {
			df := dt.Fields[i]
			j := t.matchChild(df, ff)
			if j < 0 {
				out.Children[i] = &vector.Vector{}
				fillNull(out.Children[i], tc, v.Len)
				continue
			}
			out.Children[i] = t.conform(tc, df.Type, ff.Children[j], v.Children[j])
		}
		return &out
	case schema.List:
		if ff.Kind != schema.List || dt.Name != "array" {
			return v
		}
		out := *v
		out.Children = []*vector.Vector{t.conform(tf.Children[0], dt.Element, ff.Children[0], v.Children[0])}
		return &out
	case schema.Map:
		if ff.Kind != schema.Map || dt.Name != "map" || len(tf.Children) != len(ff.Children) {
			return v
		}
		out := *v
		out.Children = []*vector.Vector{t.conform(tf.Children[0], dt.Key, ff.Children[0], v.Children[0])}
		if len(tf.Children) > 1 {
			out.Children = append(out.Children, t.conform(tf.Children[1], dt.Value, ff.Children[1], v.Children[1]))
		}
		return &out
	}
	return v
}

// matchChild finds the file's struct field holding Delta field df: by
// field id in id mode (when the file has ids), else by physical name.
func (t *Table) matchChild(df *delta.Field, ff *schema.Field) int {
	if t.delta.snap.ColumnMapping == "id" && df.ID != 0 {
		ids := false
		for j, c := range ff.Children {
			if id := c.Node.FieldID; id.Set {
				ids = true
				if id.Value == df.ID {
					return j
				}
			}
		}
		if ids {
			return -1
		}
	}
	for j, c := range ff.Children {
		if c.Name == df.PhysicalName {
			return j
		}
	}
	for j, c := range ff.Children {
		if strings.EqualFold(c.Name, df.PhysicalName) {
			return j
		}
	}
	return -1
}

// deletions returns the deletion vector of file fi (nil when the file has
// none), loading it the first time a scan reaches the file.
func (t *Table) deletions(fi int) (*dv.Bitmap, error) {
	if t.delta == nil {
		return nil, nil
	}
	a := t.delta.adds[fi]
	if a.DeletionVector == nil {
		return nil, nil
	}
	t.delta.mu.Lock()
	e, ok := t.delta.dvs[fi]
	if !ok {
		e = &dvEntry{}
		t.delta.dvs[fi] = e
	}
	t.delta.mu.Unlock()
	e.once.Do(func() {
		e.bm, e.err = dv.LoadWith(t.delta.snap.Root, *a.DeletionVector, t.delta.snap.Store)
		if e.err != nil {
			e.err = fmt.Errorf("%s: deletion vector of %s: %w", t.Path, a.URI, e.err)
		}
	})
	return e.bm, e.err
}

// rowGroupStart is the index within its file of the first row of row group rg.
func rowGroupStart(f *file.File, rg int) int64 {
	var n int64
	for i := 0; i < rg; i++ {
		n += f.Meta.RowGroups[i].NumRows
	}
	return n
}

// deletedIn counts the deleted rows of a row group within the row ranges
// (nil: the whole row group).
func deletedIn(del *dv.Bitmap, base int64, rr ranges, all int64, buf []uint64) int64 {
	if del == nil {
		return 0
	}
	if rr == nil {
		rr = ranges{{Start: 0, End: all}}
	}
	var n int64
	for _, r := range rr {
		buf = del.AppendRange(buf[:0], uint64(base+r.Start), uint64(base+r.End))
		n += int64(len(buf))
	}
	return n
}

// maxCutRows is the most deleted rows of a row group cut out of its row
// ranges; beyond it they are cleared from batch selections instead (many
// small ranges would make many small batches).
const maxCutRows = 64

// cutDeleted removes the deleted rows of a row group (rows base..base+all
// of its file) from its row ranges (nil: all rows) when they are few. cut
// reports that it did (no rows are deleted from the result); otherwise rr
// is returned as it was.
func cutDeleted(rr ranges, del *dv.Bitmap, base, all int64) (ranges, bool) {
	in := rr
	if in == nil {
		in = ranges{{Start: 0, End: all}}
	}
	var rows []uint64
	for _, r := range in {
		rows = del.AppendRange(rows, uint64(base+r.Start), uint64(base+r.End))
		if len(rows) > maxCutRows {
			return rr, false
		}
	}
	if len(rows) == 0 {
		return rr, true
	}
	rr = in
	out := make(ranges, 0, len(rr)+len(rows))
	k := 0
	for _, r := range rr {
		start := r.Start
		for k < len(rows) && int64(rows[k])-base < r.End {
			d := int64(rows[k]) - base
			if d > start {
				out = append(out, file.RowRange{Start: start, End: d})
			}
			start = d + 1
			k++
		}
		if start < r.End {
			out = append(out, file.RowRange{Start: start, End: r.End})
		}
	}
	return out, true
}

// deltaNumRows counts a Delta table's live rows: each file's numRecords
// (its footer when the stats lack it) minus its deletion vector's
// cardinality.
func (t *Table) deltaNumRows() (int64, error) {
	var n int64
	for i, a := range t.delta.adds {
		var rows int64
		if st, err := a.Stats(); err == nil && st != nil && st.NumRecords >= 0 {
			rows = st.NumRecords
		} else {
			f, err := t.File(i)
			if err != nil {
				return 0, err
			}
			rows = f.NumRows()
		}
		if d := a.DeletionVector; d != nil {
			if d.Cardinality < 0 || d.Cardinality > rows {
				return 0, fmt.Errorf("%s: file %s: the deletion vector removes %d of %d rows", t.Path, a.URI, d.Cardinality, rows)
			}
			rows -= d.Cardinality
		}
		n += rows
	}
	return n, nil
}

// statsBinding binds predicates to the table's own fields, for pruning
// files by the statistics of their add actions.
type statsBinding struct{ t *Table }

func (b statsBinding) column(name string) (int, *schema.Field, any, bool) {
	f := b.t.tableField(name)
	if f == nil {
		return 0, nil, nil, false
	}
	return 0, f, nil, true
}

// tableField finds the table's field for a column name or dotted struct
// path.
func (t *Table) tableField(name string) *schema.Field {
	if c := t.Column(name); c != nil {
		return c.Field
	}
	parts := strings.Split(name, ".")
	c := t.Column(parts[0])
	if c == nil || c.Field == nil {
		return nil
	}
	f := c.Field
	for _, p := range parts[1:] {
		if f.Kind != schema.Struct {
			return nil
		}
		var next *schema.Field
		for _, ch := range f.Children {
			if ch.Name == p || (next == nil && strings.EqualFold(ch.Name, p)) {
				next = ch
			}
		}
		if next == nil {
			return nil
		}
		f = next
	}
	return f
}

// statsPath is a column's path in the stats maps: physical names.
func (t *Table) statsPath(name string) []string {
	parts := strings.Split(name, ".")
	fields := t.delta.snap.Schema.Fields
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		var df *delta.Field
		for _, c := range fields {
			if c.Name == p || (df == nil && strings.EqualFold(c.Name, p)) {
				df = c
			}
		}
		if df == nil {
			return nil
		}
		out = append(out, df.PhysicalName)
		if i < len(parts)-1 {
			if df.Type.Name != "struct" {
				return nil
			}
			fields = df.Type.Fields
		}
	}
	return out
}

// deltaFileMayMatch decides from an add action alone (partition values
// and statistics) whether file fi can hold rows for which p is true. It
// opens no file.
func (s *Scanner) deltaFileMayMatch(fi int, p Predicate) bool {
	switch x := p.(type) {
	case And:
		for _, t := range x.Terms {
			if !s.deltaFileMayMatch(fi, t) {
				return false
			}
		}
		return true
	case Or:
		for _, t := range x.Terms {
			if s.deltaFileMayMatch(fi, t) {
				return true
			}
		}
		return false
	case Not:
		return true
	}
	t := s.t
	name := Columns(nil, p)[0]
	if c := t.Column(name); c != nil && c.Partition {
		truth, known := vector.NewBitmap(1, false), vector.NewBitmap(1, false)
		constTerm(p, t.Files[fi].Partition[c.Name]).eval(nil, 1, truth, known)
		return truth.Get(0)
	}
	st, err := t.delta.adds[fi].Stats()
	if err != nil || st == nil {
		return true // no usable statistics: the file is read
	}
	fl := t.tableField(name)
	if fl == nil || fl.Kind != schema.Primitive {
		return true
	}
	leaf, ok := compile(p, statsBinding{t}).(*leafEval)
	if !ok || leaf.byValue || leaf.ci.dom == domNone {
		return true
	}
	path := t.statsPath(name)
	if path == nil {
		return true
	}
	cs := colStats{nulls: -1, values: st.NumRecords}
	if v, ok := delta.Value(st.NullCount, path); ok {
		if n, ok := v.(json.Number); ok {
			if k, err := n.Int64(); err == nil {
				cs.nulls = k
			}
		}
	}
	mn, ok1 := delta.Value(st.MinValues, path)
	mx, ok2 := delta.Value(st.MaxValues, path)
	if ok1 && ok2 {
		lo, okl := jsonBound(leaf.ci, mn, false)
		hi, okh := jsonBound(leaf.ci, mx, true)
		if okl && okh {
			cs.hasMinMax, cs.min, cs.max = true, lo, hi
		}
	}
	// Float statistics may leave NaN out: NaN sorts above any maximum.
	cs.maybeNaN = leaf.ci.dom == domFloat
	return mayMatch(leaf.ci, p, leaf.bounds, cs)
}

// jsonBound converts a statistics value from an add action into the
// column's domain. Writers truncate statistics: a string maximum may be a
// prefix of the true maximum, a timestamp is cut to milliseconds; upper
// bounds are widened to cover what was cut.
func jsonBound(ci colInfo, v any, upper bool) (bound, bool) {
	var c any
	switch x := v.(type) {
	case json.Number:
		c = string(x)
		if ci.dom == domInt && ci.scale <= 0 && !ci.isDate && !ci.isStamp && !ci.isTime {
			if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return bound{i: n}, true // the common case, without big.Rat
			}
		}
		if ci.dom == domFloat {
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil {
				return bound{}, false
			}
			c = f
		}
	case string:
		c = x
		if ci.dom == domFloat || ci.dom == domInt && !ci.isDate && !ci.isStamp && !ci.isTime {
			return bound{}, false // "NaN", "Infinity" or text where a number belongs
		}
		if ci.dom == domBytes && upper {
			// No UTF-8 text holds 0xFF: above every string with this prefix.
			return bound{b: append([]byte(x), 0xFF)}, true
		}
		if ci.isStamp {
			tm, ok := parseTimeLiteral(x)
			if !ok {
				return bound{}, false
			}
			if upper {
				tm = tm.Add(time.Millisecond - time.Nanosecond)
				// Round down to the unit: the bound stays at or above the max.
				bd, ok := bindTime(ci, tm)
				bd.frac, bd.never = 0, false
				return bd, ok
			}
			c = tm
		}
	case bool:
		c = x
	default:
		return bound{}, false
	}
	if ci.dom == domBytes {
		s, ok := c.(string)
		if !ok {
			return bound{}, false
		}
		return bound{b: []byte(s)}, true
	}
	bd, ok := bindConst(ci, c)
	if !ok || bd.low || bd.high {
		return bound{}, false
	}
	if bd.frac != 0 {
		if upper {
			bd.i++ // the value lies above i: i+1 bounds it
		}
		bd.frac, bd.never = 0, false
	}
	return bd, true
}

// isDeltaRoot reports whether a folder (or an object store prefix) is a
// Delta table.
func isDeltaRoot(path string, store map[string]string) bool {
	if objstore.IsURL(path) {
		u, _, _ := strings.Cut(path, "?")
		return !strings.ContainsAny(u, "*[") && !strings.HasSuffix(u, ".parquet") && delta.IsTableWith(strings.TrimSuffix(u, "/"), store)
	}
	if strings.ContainsAny(path, "*?[") {
		return false
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return false
	}
	return delta.IsTable(path)
}

// DeltaFile returns a table of data file fi of a Delta table alone, read
// without its deletion vector: every row of the file, in the file's order
// (the i-th row of an ordered scan is the row at position i, which is
// what a deletion vector counts). Its add's statistics still prune. The
// caller closes the table.
func (t *Table) DeltaFile(fi int) (*Table, error) {
	if t.delta == nil {
		return nil, fmt.Errorf("%s: not a Delta table", t.Path)
	}
	if fi < 0 || fi >= len(t.Files) {
		return nil, fmt.Errorf("%s: no data file %d", t.Path, fi)
	}
	a := t.delta.adds[fi]
	bare := &delta.AddFile{Path: a.Path, URI: a.URI, PartitionValues: a.PartitionValues, Size: a.Size, StatsJSON: a.StatsJSON}
	return &Table{Name: t.Name, Path: t.Path, Columns: t.Columns, opts: t.opts, open: map[string]*file.File{},
		Files: []FileRef{t.Files[fi]},
		delta: &deltaState{snap: t.delta.snap, adds: []*delta.AddFile{bare}, dvs: map[int]*dvEntry{}}}, nil
}

// DeltaAdd returns the add action of data file fi of a Delta table (nil
// for another table).
func (t *Table) DeltaAdd(fi int) *delta.AddFile {
	if t.delta == nil || fi < 0 || fi >= len(t.delta.adds) {
		return nil
	}
	return t.delta.adds[fi]
}
