package writer

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// rowsOf returns the rows of a batch as Go values.
func rowsOf(fields []*schema.Field, cols []*vector.Vector) [][]any {
	if len(cols) == 0 {
		return nil
	}
	n := cols[0].Len
	out := make([][]any, n)
	for i := range n {
		row := make([]any, len(cols))
		for c, v := range cols {
			row[c] = value.Get(fields[c], v, i)
		}
		out[i] = row
	}
	return out
}

// readRows reads every row of a file as Go values. Each row group is read
// by a fresh Reader in one batch: parquet/file's assembler keeps stale
// validity bits when it reuses a vector for the next batch (reported), so
// batches are not reused here.
func readRows(t testing.TB, f *file.File, batch int) [][]any {
	t.Helper()
	var rows [][]any
	for rg := range f.NumRowGroups() {
		n := int(f.Meta.RowGroups[rg].NumRows)
		r, err := f.NewReader(file.ReaderOptions{BatchSize: max(batch, n, 1), RowGroups: []int{rg}})
		if err != nil {
			t.Fatal(err)
		}
		for {
			b, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, rowsOf(b.Fields, b.Columns)...)
		}
	}
	return rows
}

func openBuffer(t testing.TB, b *Buffer) *file.File {
	t.Helper()
	f, err := file.Open(b, b.Size(), file.Options{Name: "buffer"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// equalValue compares Go values as value.Get returns them, with NaNs equal
// to themselves (bit for bit) and decimals and times by value.
func equalValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float32:
		y, ok := b.(float32)
		return ok && math.Float32bits(x) == math.Float32bits(y)
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case value.Decimal:
		y, ok := b.(value.Decimal)
		return ok && x.Scale == y.Scale && x.Cmp(y) == 0
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValue(v, w) {
				return false
			}
		}
		return true
	case map[any]any:
		y, ok := b.(map[any]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValue(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

func compareRows(t testing.TB, want, got [][]any) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("read %d rows, wrote %d", len(got), len(want))
	}
	for i := range want {
		if len(want[i]) != len(got[i]) {
			t.Fatalf("row %d: %d columns read, %d written", i, len(got[i]), len(want[i]))
		}
		for c := range want[i] {
			if !equalValue(want[i][c], got[i][c]) {
				t.Fatalf("row %d column %d: read %s, wrote %s", i, c, show(got[i][c]), show(want[i][c]))
			}
		}
	}
}

func show(v any) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

// gen makes random vectors for logical fields.
type gen struct {
	rng      *rand.Rand
	nullFrac float64
	maxList  int
}

func (g *gen) vector(f *schema.Field, n int) *vector.Vector {
	var v *vector.Vector
	switch f.Kind {
	case schema.Struct:
		v = &vector.Vector{Kind: vector.Struct, Len: n}
		for _, c := range f.Children {
			v.Children = append(v.Children, g.vector(c, n))
		}
	case schema.List, schema.Map:
		kind := vector.List
		if f.Kind == schema.Map {
			kind = vector.Map
		}
		v = &vector.Vector{Kind: kind, Len: n, Offsets: make([]int32, 1, n+1)}
		total := 0
		for range n {
			total += g.rng.IntN(g.maxList + 1)
			v.Offsets = append(v.Offsets, int32(total))
		}
		for i, c := range f.Children {
			if f.Kind == schema.Map && i == 0 {
				v.Children = append(v.Children, g.keys(c, total))
				continue
			}
			v.Children = append(v.Children, g.vector(c, total))
		}
	default:
		v = g.primitive(f.Node, n)
	}
	if f.Nullable && g.nullFrac > 0 {
		g.addNulls(f, v)
	}
	return v
}

// keys makes distinct map keys (value.Get would merge duplicates).
func (g *gen) keys(f *schema.Field, n int) *vector.Vector {
	v := g.primitive(f.Node, n)
	switch v.Kind {
	case vector.Int32:
		for i := range v.Int32s {
			v.Int32s[i] = int32(i)
		}
	case vector.Int64:
		for i := range v.Int64s {
			v.Int64s[i] = int64(i)
		}
	case vector.ByteArray:
		v.Data, v.Offsets = v.Data[:0], v.Offsets[:1]
		for i := range n {
			v.Data = fmt.Appendf(v.Data, "k%d", i)
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	}
	return v
}

func (g *gen) addNulls(f *schema.Field, v *vector.Vector) {
	frac := g.nullFrac
	if g.rng.IntN(8) == 0 {
		frac = 1 // sometimes all null
	}
	valid := vector.NewBitmap(v.Len, true)
	any := false
	for i := range v.Len {
		if g.rng.Float64() < frac {
			valid.Clear(i)
			any = true
			clearSlot(v, i)
		}
	}
	if any {
		v.Valid = valid
	}
}

// clearSlot empties a null slot as the vector layout asks (zero values,
// empty byte arrays and lists).
func clearSlot(v *vector.Vector, i int) {
	switch v.Kind {
	case vector.Bool:
		v.Bools[i] = false
	case vector.Int32:
		v.Int32s[i] = 0
	case vector.Int64:
		v.Int64s[i] = 0
	case vector.Float32:
		v.Float32s[i] = 0
	case vector.Float64:
		v.Float64s[i] = 0
	case vector.Int96:
		v.Int96s[i] = [12]byte{}
	}
}

func (g *gen) primitive(n *schema.Node, count int) *vector.Vector {
	r := g.rng
	lt := n.Logical
	v := &vector.Vector{Kind: kindOf(n.Physical), Len: count, Width: n.TypeLength}
	if lt != nil && lt.Unknown != nil {
		// UNKNOWN columns are always null; addNulls handles the bitmap.
	}
	switch n.Physical {
	case format.Boolean:
		v.Bools = make([]bool, count)
		for i := range v.Bools {
			v.Bools[i] = r.IntN(2) == 0
		}
	case format.Int32:
		v.Int32s = make([]int32, count)
		if lt != nil && lt.Time != nil { // milliseconds of a day
			for i := range v.Int32s {
				v.Int32s[i] = int32(r.IntN(86400000))
			}
			break
		}
		lo, span := int64(math.MinInt32), int64(1)<<32
		if lt != nil && lt.Integer != nil && lt.Integer.BitWidth < 32 {
			span = 1 << lt.Integer.BitWidth
			if lt.Integer.IsSigned {
				lo = -span / 2
			} else {
				lo = 0
			}
		} else if lt != nil && lt.Decimal != nil {
			p := int64(math.Pow10(int(lt.Decimal.Precision)))
			lo, span = -p+1, 2*p-1
		} else if r.IntN(2) == 0 {
			lo, span = -50, 100 // small domains make dictionaries
		}
		for i := range v.Int32s {
			v.Int32s[i] = int32(lo + r.Int64N(span))
		}
	case format.Int64:
		v.Int64s = make([]int64, count)
		if lt != nil && lt.Time != nil { // micro- or nanoseconds of a day
			day := 86400 * 1e9 / schema.UnitNanos(lt.Time.Unit)
			for i := range v.Int64s {
				v.Int64s[i] = r.Int64N(day)
			}
			break
		}
		small := r.IntN(2) == 0
		for i := range v.Int64s {
			if small {
				v.Int64s[i] = r.Int64N(100) - 50
			} else {
				v.Int64s[i] = int64(r.Uint64())
			}
			if lt != nil && lt.Decimal != nil {
				p := int64(math.Pow10(int(lt.Decimal.Precision)))
				v.Int64s[i] = r.Int64N(2*p-1) - p + 1
			}
		}
	case format.Int96:
		v.Int96s = make([][12]byte, count)
		for i := range v.Int96s {
			for j := range 12 {
				v.Int96s[i][j] = byte(r.IntN(256))
			}
			v.Int96s[i][11] = 0 // keep the day number sane
		}
	case format.Float:
		v.Float32s = make([]float32, count)
		for i := range v.Float32s {
			v.Float32s[i] = float32(g.float())
		}
	case format.Double:
		v.Float64s = make([]float64, count)
		for i := range v.Float64s {
			v.Float64s[i] = g.float()
		}
	case format.FixedLenByteArray:
		w := n.TypeLength
		v.Data = make([]byte, count*w)
		for i := range v.Data {
			v.Data[i] = byte(r.IntN(256))
		}
		if r.IntN(2) == 0 { // few distinct values
			for i := 1; i < count; i++ {
				j := r.IntN(min(i, 4))
				copy(v.Data[i*w:(i+1)*w], v.Data[j*w:(j+1)*w])
			}
		}
	case format.ByteArray:
		v.Offsets = make([]int32, 1, count+1)
		text := lt != nil && (lt.String != nil || lt.JSON != nil || lt.Enum != nil)
		words := []string{"alpha", "beta", "gamma", "δέλτα", "", "epsilon-epsilon", "zeta", strings.Repeat("long", 30)}
		for range count {
			switch {
			case text || r.IntN(2) == 0:
				v.Data = append(v.Data, words[r.IntN(len(words))]...)
			default:
				k := r.IntN(20)
				for range k {
					v.Data = append(v.Data, byte(r.IntN(256)))
				}
			}
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	}
	return v
}

func (g *gen) float() float64 {
	switch g.rng.IntN(20) {
	case 0:
		return math.NaN()
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 0
	case 3:
		return math.Inf(1)
	}
	if g.rng.IntN(2) == 0 {
		return float64(g.rng.IntN(10))
	}
	return g.rng.NormFloat64() * 1000
}
