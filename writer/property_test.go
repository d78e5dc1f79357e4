package writer

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// leafMakers build every kind of primitive field.
var leafMakers = []func(name string) Field{
	Bool, Int32, Int64, Int96, Float, Double, Binary, String, JSON, BSON, Enum, UUID, Float16, Date, Interval,
	func(n string) Field { return FixedLen(n, 3) },
	func(n string) Field { return Integer(n, 8, false) },
	func(n string) Field { return Integer(n, 16, true) },
	func(n string) Field { return Integer(n, 32, false) },
	func(n string) Field { return Integer(n, 64, false) },
	func(n string) Field { return Time(n, Millis, true) },
	func(n string) Field { return Time(n, Nanos, false) },
	func(n string) Field { return Timestamp(n, Micros, true) },
	func(n string) Field { return Timestamp(n, Nanos, false) },
	func(n string) Field { return Decimal(n, 7, 2) },
	func(n string) Field { return Decimal(n, 15, 3) },
	func(n string) Field { return Decimal(n, 25, 10) },
	func(n string) Field { return DecimalAs(n, 50, 4, format.ByteArray, 0) },
	func(n string) Field { return Geometry(n, "") },
}

type schemaGen struct {
	rng  *rand.Rand
	next int
}

func (g *schemaGen) name() string {
	g.next++
	return fmt.Sprintf("f%d", g.next)
}

func (g *schemaGen) rep(f Field) Field {
	if g.rng.IntN(3) == 0 {
		return f.Required()
	}
	return f
}

func (g *schemaGen) field(depth int) Field { return g.fieldR(depth, true) }

// fieldR makes a random field; bare repeated fields only where allowed
// (not as list elements or map values).
func (g *schemaGen) fieldR(depth int, allowRepeated bool) Field {
	r := g.rng
	if depth <= 0 || r.IntN(3) == 0 {
		f := leafMakers[r.IntN(len(leafMakers))](g.name())
		if allowRepeated && r.IntN(25) == 0 {
			return f.Repeated() // a bare repeated column, as old files have
		}
		return g.rep(f)
	}
	switch r.IntN(4) {
	case 0:
		n := 1 + r.IntN(3)
		children := make([]Field, n)
		for i := range children {
			children[i] = g.field(depth - 1)
		}
		g2 := Group(g.name(), children...)
		if allowRepeated && r.IntN(25) == 0 {
			return g2.Repeated()
		}
		return g.rep(g2)
	case 1:
		return g.rep(List(g.name(), g.fieldR(depth-1, false)))
	case 2:
		keys := []func(string) Field{String, Int32, Int64}
		k := keys[r.IntN(len(keys))](g.name())
		if r.IntN(4) == 0 {
			return g.rep(Map(g.name(), k))
		}
		return g.rep(Map(g.name(), k, g.fieldR(depth-1, false)))
	}
	return g.rep(List(g.name(), g.rep(List(g.name(), g.fieldR(depth-2, false)))))
}

// encodingsFor lists the value encodings a physical type can use.
func encodingsFor(t format.Type) []format.Encoding {
	switch t {
	case format.Boolean:
		return []format.Encoding{format.Plain, format.RLE}
	case format.Int32, format.Int64:
		return []format.Encoding{format.Plain, format.DeltaBinaryPacked, format.ByteStreamSplit}
	case format.Float, format.Double:
		return []format.Encoding{format.Plain, format.ByteStreamSplit, format.ALP}
	case format.ByteArray:
		return []format.Encoding{format.Plain, format.DeltaLengthByteArray, format.DeltaByteArray}
	case format.FixedLenByteArray:
		return []format.Encoding{format.Plain, format.DeltaByteArray, format.ByteStreamSplit}
	}
	return []format.Encoding{format.Plain}
}

var allCodecs = []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Gzip, format.Brotli,
	format.LZ4, format.Zstd, format.LZ4Raw}

// TestRoundTripRandom writes random nested schemas with random data,
// encodings, codecs, page versions and tiny pages and row groups, and
// reads everything back.
func TestRoundTripRandom(t *testing.T) {
	iters := 150
	if testing.Short() {
		iters = 30
	}
	for seed := range iters {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		runRandomCase(t, seed, rng, randomSchema(t, rng, 4))
	}
}

// randomSchema makes a schema of one to four random fields nested up to
// maxDepth deep.
func randomSchema(t testing.TB, rng *rand.Rand, maxDepth int) *schema.Schema {
	t.Helper()
	sg := &schemaGen{rng: rng}
	var fields []Field
	for range 1 + rng.IntN(4) {
		fields = append(fields, sg.field(1+rng.IntN(maxDepth)))
	}
	sch, err := NewSchema(fields...)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func runRandomCase(t *testing.T, seed int, rng *rand.Rand, sch *schema.Schema) {
	t.Helper()
	lf, err := sch.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	opts := []Option{
		WithCompression(allCodecs[rng.IntN(len(allCodecs))]),
		WithDataPageVersion(1 + rng.IntN(2)),
		WithDataPageSize(1 + rng.IntN(2000)),
		WithPageRowLimit(1 + rng.IntN(40)),
		WithRowGroupRows(int64(1 + rng.IntN(150))),
		WithDictionaryPageSizeLimit(rng.IntN(400)),
		WithPageChecksum(rng.IntN(2) == 0),
	}
	if rng.IntN(4) == 0 {
		opts = append(opts, WithRowGroupSize(int64(1+rng.IntN(3000))))
	}
	for _, leaf := range sch.Leaves {
		encs := encodingsFor(leaf.Physical)
		opts = append(opts, WithEncodingFor(leaf.PathString(), encs[rng.IntN(len(encs))]),
			WithDictionaryFor(leaf.PathString(), rng.IntN(2) == 0))
		if rng.IntN(4) == 0 {
			opts = append(opts, WithBloomFilterFor(leaf.PathString(), int64(rng.IntN(500)), 0.1))
		}
	}
	g := &gen{rng: rng, nullFrac: []float64{0, 0.1, 0.5}[rng.IntN(3)], maxList: rng.IntN(4)}
	var buf Buffer
	w, err := New(&buf, sch, opts...)
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, sch)
	}
	var want [][]any
	for range 1 + rng.IntN(3) {
		n := rng.IntN(120)
		cols := make([]*vector.Vector, len(lf))
		for i, f := range lf {
			cols[i] = g.vector(f, n)
		}
		want = append(want, rowsOf(lf, cols)...)
		if err := w.WriteBatch(cols); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, sch)
		}
		if rng.IntN(3) == 0 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	f := openBuffer(t, &buf)
	got := readRows(t, f, 1+rng.IntN(100))
	if len(got) != len(want) {
		t.Fatalf("seed %d: %d rows read, %d written\n%s", seed, len(got), len(want), sch)
	}
	for i := range want {
		for c := range want[i] {
			if !equalValue(want[i][c], got[i][c]) {
				t.Fatalf("seed %d: row %d column %d: read %s, wrote %s\n%s", seed, i, c, show(got[i][c]), show(want[i][c]), sch)
			}
		}
	}
	verifyMetadata(t, f)
	if t.Failed() {
		t.Fatalf("seed %d\n%s", seed, sch)
	}
}

// TestRowsRoundTrip writes random nested data as rows of Go values (as
// parquet/value's Get returns them) and reads it back.
func TestRowsRoundTrip(t *testing.T) {
	iters := 120
	if testing.Short() {
		iters = 20
	}
	for seed := range iters {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		sch := randomSchema(t, rng, 3)
		lf, _ := sch.LogicalFields()
		g := &gen{rng: rng, nullFrac: 0.2, maxList: 3}
		n := rng.IntN(300)
		cols := make([]*vector.Vector, len(lf))
		for i, f := range lf {
			cols[i] = g.vector(f, n)
		}
		want := rowsOf(lf, cols)
		var buf Buffer
		w, err := New(&buf, sch, WithRowGroupRows(int64(1+rng.IntN(200))), WithPageRowLimit(1+rng.IntN(30)))
		if err != nil {
			t.Fatal(err)
		}
		for len(want) > 0 {
			k := min(len(want), rng.IntN(50))
			if err := w.WriteRows(want[:k]); err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, sch)
			}
			want = want[k:]
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openBuffer(t, &buf)
		got := readRows(t, f, 0)
		want = rowsOf(lf, cols)
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d rows read, %d written", seed, len(got), len(want))
		}
		for i := range want {
			for c := range want[i] {
				if !equalValue(want[i][c], got[i][c]) {
					t.Fatalf("seed %d: row %d column %d: read %s, wrote %s\n%s", seed, i, c, show(got[i][c]), show(want[i][c]), sch)
				}
			}
		}
		verifyMetadata(t, f)
	}
}
