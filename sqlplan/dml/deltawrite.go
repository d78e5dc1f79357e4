package dml

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// Writing a Delta table's data files: the rows, in the table's columns,
// are split by their partition values (DeltaLayout) and written one new
// file per partition (WriteDeltaRows, WriteDeltaFile), whose add actions
// the caller commits to the log.

// DeltaLayout is how the rows of a Delta table, as vectors in the
// table's columns and types, become data files: split by the values of
// the partition columns, which the files do not hold, the other columns
// under their physical names (column mapping).
type DeltaLayout struct {
	dtype  *delta.Type
	sch    *schema.Schema  // the table's columns, in the types Delta readers expect
	fields []*schema.Field // sch's logical fields
	fsch   *schema.Schema  // the data files' schema (delta.FileType)
	ftype  *delta.Type
	data   []int // the table's columns the data files hold
	part   []int // the partition columns, in the metadata's order
	// pkeys are the partition columns' keys in partitionValues (their
	// physical names).
	pkeys []string
}

// Schema is the table's schema, in the types Delta readers expect.
func (l *DeltaLayout) Schema() *schema.Schema { return l.sch }

// Fields are the logical fields of the table's columns.
func (l *DeltaLayout) Fields() []*schema.Field { return l.fields }

// PartitionKeys are the partition columns' keys in an add action's
// partitionValues (their physical names), in the metadata's order.
func (l *DeltaLayout) PartitionKeys() []string { return l.pkeys }

// NewDeltaLayout is the layout of the Delta table of type dt partitioned
// by partitionColumns.
func NewDeltaLayout(dt *delta.Type, partitionColumns []string) (*DeltaLayout, error) {
	sch, err := dt.ParquetSchema()
	if err != nil {
		return nil, err
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		return nil, err
	}
	l := &DeltaLayout{dtype: dt, sch: sch, fields: fields, ftype: delta.FileType(dt, partitionColumns)}
	if l.fsch, err = l.ftype.ParquetSchema(); err != nil {
		return nil, err
	}
	for _, pc := range partitionColumns {
		k := slices.IndexFunc(dt.Fields, func(f *delta.Field) bool { return strings.EqualFold(f.Name, pc) })
		if k < 0 {
			return nil, fmt.Errorf("partition column %q is not in the schema", pc)
		}
		if err := delta.CheckPartitionType(pc, dt.Fields[k].Type); err != nil {
			return nil, err
		}
		l.part, l.pkeys = append(l.part, k), append(l.pkeys, dt.Fields[k].PhysicalName)
	}
	for k := range dt.Fields {
		if !slices.Contains(l.part, k) {
			l.data = append(l.data, k)
		}
	}
	if len(l.data) == 0 {
		return nil, fmt.Errorf("every column is a partition column: the data files would hold none")
	}
	return l, nil
}

// dataVectors are the vectors of the columns the data files hold.
func (l *DeltaLayout) dataVectors(vecs []*vector.Vector) []*vector.Vector {
	if len(l.part) == 0 {
		return vecs
	}
	out := make([]*vector.Vector, len(l.data))
	for i, k := range l.data {
		out[i] = vecs[k]
	}
	return out
}

// partitionOf returns the serialized partition values of row i.
func (l *DeltaLayout) partitionOf(vecs []*vector.Vector, i int) ([]*string, error) {
	pv := make([]*string, len(l.part))
	for j, k := range l.part {
		var err error
		if pv[j], err = delta.PartitionValue(l.dtype.Fields[k].Type, value.Get(l.fields[k], vecs[k], i)); err != nil {
			return nil, fmt.Errorf("column %q: %w", l.fields[k].Name, err)
		}
	}
	return pv, nil
}

// deltaPart is the rows of one partition.
type deltaPart struct {
	values  []*string
	batches [][]*vector.Vector
	rows    []int32 // of the batch being split
}

// split groups the rows of the batches by their partition values, the
// partitions in the order their first rows come. A row's values are
// serialized only when its raw values (rawKey) were not seen before.
func (l *DeltaLayout) split(batches [][]*vector.Vector) ([]*deltaPart, error) {
	if len(l.part) == 0 {
		return []*deltaPart{{batches: batches}}, nil
	}
	var parts []*deltaPart
	byKey := map[string]*deltaPart{} // by serialized values
	byRaw := map[string]*deltaPart{} // by raw values
	var buf []byte
	for _, vecs := range batches {
		if len(vecs) == 0 || vecs[0].Len == 0 {
			continue
		}
		var order []*deltaPart
		for i := 0; i < vecs[0].Len; i++ {
			var p *deltaPart
			raw := false
			if buf, raw = l.rawKey(buf[:0], vecs, i); raw {
				p = byRaw[string(buf)]
			}
			if p == nil {
				pv, err := l.partitionOf(vecs, i)
				if err != nil {
					return nil, err
				}
				p = PartitionGroup(byKey, &parts, pv, func() *deltaPart { return &deltaPart{values: pv} })
				if raw {
					byRaw[string(buf)] = p
				}
			}
			if len(p.rows) == 0 {
				order = append(order, p)
			}
			p.rows = append(p.rows, int32(i))
		}
		for _, p := range order {
			if len(order) == 1 {
				p.batches = append(p.batches, vecs) // the whole batch: no copy
			} else {
				taken := make([]*vector.Vector, len(vecs))
				for k, v := range vecs {
					taken[k] = &vector.Vector{}
					vector.Take(taken[k], v, p.rows)
				}
				p.batches = append(p.batches, taken)
			}
			p.rows = p.rows[:0]
		}
	}
	return parts, nil
}

// rawKey appends the raw values of row i's partition columns to buf, in
// a form that tells different values apart; ok is false for a vector
// form it does not know (the values are then serialized every row).
func (l *DeltaLayout) rawKey(buf []byte, vecs []*vector.Vector, i int) ([]byte, bool) {
	for _, k := range l.part {
		v := vecs[k]
		if v.IsNull(i) {
			buf = append(buf, 0)
			continue
		}
		buf = append(buf, 1)
		switch v.Kind {
		case vector.Bool:
			if v.Bools[i] {
				buf = append(buf, 1)
			} else {
				buf = append(buf, 0)
			}
		case vector.Int32:
			buf = binary.LittleEndian.AppendUint32(buf, uint32(v.Int32s[i]))
		case vector.Int64:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v.Int64s[i]))
		case vector.Float32:
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v.Float32s[i]))
		case vector.Float64:
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v.Float64s[i]))
		case vector.ByteArray, vector.FixedLenByteArray:
			if v.Dict != nil {
				return buf, false
			}
			b := v.Bytes(i)
			buf = binary.AppendUvarint(buf, uint64(len(b)))
			buf = append(buf, b...)
		default:
			return buf, false
		}
	}
	return buf, true
}

// PartitionGroup returns the group of the partition values pv in byKey,
// made by make and appended to list the first time pv comes.
func PartitionGroup[T any](byKey map[string]*T, list *[]*T, pv []*string, make func() *T) *T {
	key := partitionKey(pv)
	g := byKey[key]
	if g == nil {
		g = make()
		byKey[key] = g
		*list = append(*list, g)
	}
	return g
}

// partitionKey tells partition value tuples apart (nil from "").
func partitionKey(pv []*string) string {
	var b strings.Builder
	for _, v := range pv {
		if v == nil {
			b.WriteString("\x00n")
			continue
		}
		b.WriteString("\x00v")
		b.WriteString(strings.ReplaceAll(*v, "\x00", "\x00\x00"))
	}
	return b.String()
}

// WriteDeltaRows writes the rows of the batches (the table's columns) as
// new data files of the Delta table at root, one per partition, and
// returns their add actions and undo, which removes the files. store
// holds the object store's options of a root that is a URL.
func WriteDeltaRows(ctx context.Context, root string, l *DeltaLayout, opts []writer.Option, store map[string]string, batches [][]*vector.Vector) ([]delta.Add, func(), error) {
	parts, err := l.split(batches)
	if err != nil {
		return nil, nil, err
	}
	// The files are written a few at once: with many partitions the time
	// goes to creating and syncing files, not to the CPU.
	adds := make([]delta.Add, len(parts))
	undos := make([]func(), len(parts))
	errs := make([]error, len(parts))
	var failed atomic.Bool
	var wg sync.WaitGroup
	sem := make(chan struct{}, deltaFileWriters)
	for k, p := range parts {
		sem <- struct{}{}
		if failed.Load() {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			adds[k], undos[k], errs[k] = WriteDeltaFile(ctx, root, l, p.values, opts, store, func(put func([]*vector.Vector) error) error {
				for _, b := range p.batches {
					if err := put(b); err != nil {
						return err
					}
				}
				return nil
			})
			if errs[k] != nil {
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	undo := func() {
		for _, u := range undos {
			if u != nil {
				u()
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			undo()
			return nil, nil, err
		}
	}
	return adds, undo, nil
}

// deltaFileWriters is how many data files of one statement are written
// at once.
const deltaFileWriters = 8

// PartitionBy is the partition columns as commitInfo's operation
// parameters give them (a JSON list).
func PartitionBy(cols []string) string {
	b, _ := json.Marshal(append([]string{}, cols...))
	return string(b)
}

// WriteDeltaFile writes a new data file of the Delta table at root, in
// the folder of the partition values pv (part-<uuid>.parquet, under a
// temporary name until it is whole): fill gives put the rows, the
// table's columns, of which the file takes those it holds. It returns
// the file's add action, and undo, which removes the file.
func WriteDeltaFile(ctx context.Context, root string, l *DeltaLayout, pv []*string, opts []writer.Option, store map[string]string,
	fill func(put func([]*vector.Vector) error) error) (delta.Add, func(), error) {
	name := "part-" + delta.NewTableID() + ".parquet"
	if dir := delta.PartitionDir(l.pkeys, pv); dir != "" {
		name = dir + "/" + name
	}
	var w *writer.Writer
	var undo func()
	if objstore.IsURL(root) {
		url := objstore.Join(root, name)
		up, err := objstore.CreateURL(ctx, url, store, true)
		if err != nil {
			return delta.Add{}, nil, err
		}
		if w, err = writer.NewUpload(up, l.fsch, opts...); err != nil {
			return delta.Add{}, nil, err
		}
		undo = func() {
			if st, loc, err := objstore.Resolve(ctx, url, store); err == nil {
				st.Delete(ctx, loc.Key)
			}
		}
	} else {
		p := filepath.Join(root, filepath.FromSlash(name))
		// A partition's folder stays when its file is undone: a
		// concurrent writer may be about to put its own there.
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return delta.Add{}, nil, err
		}
		var err error
		if w, err = writer.CreateNew(p, l.fsch, opts...); err != nil {
			return delta.Add{}, nil, err
		}
		undo = func() { os.Remove(p) }
	}
	if err := fill(func(vecs []*vector.Vector) error { return w.WriteBatch(l.dataVectors(vecs)) }); err != nil {
		if aerr := w.Abort(); aerr != nil {
			err = errors.Join(err, aerr)
		}
		undo()
		return delta.Add{}, nil, err
	}
	if err := w.Close(); err != nil {
		undo()
		return delta.Add{}, nil, err
	}
	meta, size := w.Written()
	stats, err := delta.FileStats(meta, l.fsch, l.ftype)
	if err != nil {
		undo()
		return delta.Add{}, nil, err
	}
	add := delta.Add{Path: delta.EncodePath(name), Size: size, ModificationTime: time.Now().UnixMilli(), DataChange: true, Stats: stats}
	if len(l.pkeys) > 0 {
		add.PartitionValues = make(map[string]*string, len(l.pkeys))
		for i, k := range l.pkeys {
			add.PartitionValues[k] = pv[i]
		}
	}
	return add, undo, nil
}
