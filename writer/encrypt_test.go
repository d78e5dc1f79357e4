package writer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

var (
	testFooterKey = []byte("footer-key-16byt")
	testColKey1   = []byte("column-key-one-24-bytes!")
	testColKey2   = []byte("column-key-two-is-thirty-two-byt")
)

// encryptionCase is one way of encrypting a file, and the decryption
// that reads it back.
type encryptionCase struct {
	name string
	enc  func(sch *schema.Schema) Encryption
	dec  func(sch *schema.Schema) *file.Decryption
}

// someColumnKeys gives every other leaf a column key (two keys in turn),
// the one after the footer key, and leaves the rest in plaintext.
func someColumnKeys(sch *schema.Schema) (map[string]ColumnKey, map[string][]byte) {
	enc, dec := map[string]ColumnKey{}, map[string][]byte{}
	for i, l := range sch.Leaves {
		p := l.PathString()
		switch i % 4 {
		case 0:
			enc[p] = ColumnKey{Key: testColKey1, KeyMetadata: []byte("k1")}
			dec[p] = testColKey1
		case 1:
			enc[p] = ColumnKey{} // the footer key
		case 2:
			enc[p] = ColumnKey{Key: testColKey2, KeyMetadata: []byte("k2")}
			dec[p] = testColKey2
		}
	}
	return enc, dec
}

var encryptionCases = []encryptionCase{
	{"uniform-gcm",
		func(*schema.Schema) Encryption { return Encryption{FooterKey: testFooterKey} },
		func(*schema.Schema) *file.Decryption { return &file.Decryption{FooterKey: testFooterKey} }},
	{"uniform-ctr-plaintext-footer",
		func(*schema.Schema) Encryption {
			return Encryption{FooterKey: testFooterKey, Algorithm: AesGcmCtr, PlaintextFooter: true}
		},
		func(*schema.Schema) *file.Decryption { return &file.Decryption{FooterKey: testFooterKey} }},
	{"column-keys-gcm-aad",
		func(s *schema.Schema) Encryption {
			k, _ := someColumnKeys(s)
			return Encryption{FooterKey: testFooterKey, FooterKeyMetadata: []byte("kf"), ColumnKeys: k, AADPrefix: []byte("table.part0")}
		},
		func(s *schema.Schema) *file.Decryption {
			_, k := someColumnKeys(s)
			return &file.Decryption{FooterKey: testFooterKey, ColumnKeys: k}
		}},
	{"column-keys-ctr-retriever-hidden-aad",
		func(s *schema.Schema) Encryption {
			k, _ := someColumnKeys(s)
			return Encryption{FooterKey: testFooterKey, FooterKeyMetadata: []byte("kf"), ColumnKeys: k, Algorithm: AesGcmCtr,
				AADPrefix: []byte("secret id"), DontStoreAADPrefix: true}
		},
		func(s *schema.Schema) *file.Decryption {
			keys := map[string][]byte{"kf": testFooterKey, "k1": testColKey1, "k2": testColKey2}
			return &file.Decryption{AADPrefix: []byte("secret id"), Keys: file.KeyRetrieverFunc(func(m []byte) ([]byte, error) {
				if k, ok := keys[string(m)]; ok {
					return k, nil
				}
				return nil, fmt.Errorf("no key %q", m)
			})}
		}},
	{"column-keys-plaintext-footer",
		func(s *schema.Schema) Encryption {
			k, _ := someColumnKeys(s)
			return Encryption{FooterKey: testFooterKey, ColumnKeys: k, PlaintextFooter: true}
		},
		func(s *schema.Schema) *file.Decryption {
			_, k := someColumnKeys(s)
			return &file.Decryption{FooterKey: testFooterKey, ColumnKeys: k}
		}},
}

func openEncrypted(t testing.TB, b *Buffer, d *file.Decryption, lazy bool) *file.File {
	t.Helper()
	f, err := file.Open(b, b.Size(), file.Options{Name: "buffer", Decryption: d, LazyColumns: lazy})
	if err != nil {
		t.Fatal(err)
	}
	if enc, _ := f.Encrypted(); !enc {
		t.Fatal("the file is not encrypted")
	}
	return f
}

// checkIndexes loads every chunk's page indexes and bloom filter.
func checkIndexes(t testing.TB, f *file.File, wantBloom bool) {
	t.Helper()
	blooms := 0
	for rg := range f.NumRowGroups() {
		for col := range f.Schema.Leaves {
			c, err := f.Chunk(rg, col)
			if err != nil {
				t.Fatal(err)
			}
			oi, err := c.OffsetIndex()
			if err != nil || oi == nil {
				t.Fatalf("offset index: %v %v", oi, err)
			}
			if _, err := c.ColumnIndex(); err != nil {
				t.Fatal(err)
			}
			bf, err := c.BloomFilter()
			if err != nil {
				t.Fatal(err)
			}
			if bf != nil {
				blooms++
			}
		}
	}
	if wantBloom && blooms == 0 {
		t.Fatal("no bloom filter read")
	}
}

// TestEncryptedRoundTripFlat writes every physical and logical type
// encrypted in each way, with page indexes, bloom filters, dictionaries,
// both page versions and several codecs, and reads it back.
func TestEncryptedRoundTripFlat(t *testing.T) {
	sch, fields := flatSchema(t)
	codecs := []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Zstd}
	for ci, ec := range encryptionCases {
		for seed := range 4 {
			t.Run(fmt.Sprintf("%s/%d", ec.name, seed), func(t *testing.T) {
				g := &gen{rng: rand.New(rand.NewPCG(uint64(seed), uint64(ci))), nullFrac: 0.2, maxList: 3}
				n := 1 + g.rng.IntN(500)
				cols := make([]*vector.Vector, len(fields))
				for i, f := range fields {
					cols[i] = g.vector(f, n)
				}
				last := len(fields) - 1
				cols[last].Valid = vector.NewBitmap(n, false)
				clear(cols[last].Int32s)
				buf := writeBuffer(t, sch, cols, WithEncryption(ec.enc(sch)), WithCompression(codecs[seed%len(codecs)]),
					WithDictionary(seed%2 == 0), WithDataPageVersion(1+seed%2), WithDataPageSize(1+g.rng.IntN(4096)),
					WithPageRowLimit(1+g.rng.IntN(100)), WithRowGroupRows(int64(1+g.rng.IntN(300))), WithPageChecksum(seed < 2),
					WithBloomFilter(100, 0.05), WithPageStatistics(seed == 1))
				for _, lazy := range []bool{false, true} {
					f := openEncrypted(t, buf, ec.dec(sch), lazy)
					compareRows(t, rowsOf(fields, cols), readRows(t, f, 1+g.rng.IntN(200)))
					verifyMetadata(t, f)
					checkIndexes(t, f, true)
					checkRanges(t, f, fields, cols)
				}
			})
		}
	}
}

// TestEncryptedRoundTripNested writes random nested schemas encrypted and
// reads them back.
func TestEncryptedRoundTripNested(t *testing.T) {
	for seed := range 40 {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		sch := randomSchema(t, rng, 4)
		lf, err := sch.LogicalFields()
		if err != nil {
			t.Fatal(err)
		}
		ec := encryptionCases[seed%len(encryptionCases)]
		var buf Buffer
		w, err := New(&buf, sch, WithEncryption(ec.enc(sch)), WithDataPageVersion(1+rng.IntN(2)),
			WithPageRowLimit(1+rng.IntN(40)), WithRowGroupRows(int64(1+rng.IntN(150))), WithCompression(format.Snappy))
		if err != nil {
			t.Fatal(err)
		}
		g := &gen{rng: rng, nullFrac: 0.2, maxList: 3}
		n := rng.IntN(300)
		cols := make([]*vector.Vector, len(lf))
		for i, f := range lf {
			cols[i] = g.vector(f, n)
		}
		if err := w.WriteBatch(cols); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f := openEncrypted(t, &buf, ec.dec(sch), false)
		got := readRows(t, f, 1+rng.IntN(100))
		want := rowsOf(lf, cols)
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d rows, want %d", seed, len(got), len(want))
		}
		for i := range want {
			for c := range want[i] {
				if !equalValue(want[i][c], got[i][c]) {
					t.Fatalf("seed %d (%s): row %d column %d: read %s, wrote %s\n%s", seed, ec.name, i, c, show(got[i][c]), show(want[i][c]), sch)
				}
			}
		}
		verifyMetadata(t, f)
	}
}

// TestEncryptedFileLayout checks the magics, that no plaintext value is
// left in the file, and what readers without keys get.
func TestEncryptedFileLayout(t *testing.T) {
	sch, err := NewSchema(String("secret").Required(), Int64("open").Required())
	if err != nil {
		t.Fatal(err)
	}
	write := func(e Encryption) *Buffer {
		var buf Buffer
		w, err := New(&buf, sch, WithEncryption(e), WithBloomFilter(10, 0.01))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			if err := w.WriteRow(fmt.Sprintf("confidential-%03d", i), int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return &buf
	}
	keys := map[string]ColumnKey{"secret": {Key: testColKey1, KeyMetadata: []byte("k1")}}

	// Encrypted footer: PARE at both ends, nothing readable.
	b := write(Encryption{FooterKey: testFooterKey, ColumnKeys: keys})
	data := b.Bytes()
	if string(data[:4]) != "PARE" || string(data[len(data)-4:]) != "PARE" {
		t.Fatalf("magics %q %q", data[:4], data[len(data)-4:])
	}
	if bytes.Contains(data, []byte("confidential")) || bytes.Contains(data, []byte("secret")) {
		t.Fatal("plaintext left in an encrypted file")
	}
	if _, err := file.Open(b, b.Size(), file.Options{}); !errors.Is(err, file.ErrEncrypted) {
		t.Fatalf("no keys: %v", err)
	}
	f := openEncrypted(t, b, &file.Decryption{FooterKey: testFooterKey, ColumnKeys: map[string][]byte{"secret": testColKey1}}, false)
	if got := readRows(t, f, 10); len(got) != 100 || got[42][0] != "confidential-042" {
		t.Fatalf("%d rows", len(got))
	}
	// ... the plaintext column reads without the column key, the other not.
	f = openEncrypted(t, b, &file.Decryption{FooterKey: testFooterKey}, false)
	r, err := f.NewReader(file.ReaderOptions{Columns: []string{"secret"}})
	if err == nil {
		_, err = r.Next()
	}
	if !errors.Is(err, file.ErrEncrypted) || !strings.Contains(err.Error(), "column secret") {
		t.Fatalf("no column key: %v", err)
	}

	// Plaintext footer: PAR1, readable without keys but for the column.
	b = write(Encryption{FooterKey: testFooterKey, ColumnKeys: keys, PlaintextFooter: true})
	data = b.Bytes()
	if string(data[:4]) != "PAR1" || bytes.Contains(data, []byte("confidential")) {
		t.Fatal("plaintext footer file: wrong magic or values in plaintext")
	}
	f, err = file.Open(b, b.Size(), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err = f.NewReader(file.ReaderOptions{Columns: []string{"open"}})
	if err != nil {
		t.Fatal(err)
	}
	if bt, err := r.Next(); err != nil || bt.NumRows != 100 {
		t.Fatalf("plaintext column: %v", err)
	}
	if cc, _ := f.ColumnChunk(0, 0); cc.MetaData == nil || cc.MetaData.Statistics != nil {
		t.Fatal("the plaintext footer should keep the encrypted column's metadata without statistics")
	}
	// With the key, the column's statistics are back.
	f = openEncrypted(t, b, &file.Decryption{FooterKey: testFooterKey, ColumnKeys: map[string][]byte{"secret": testColKey1}}, false)
	if cc, _ := f.ColumnChunk(0, 0); cc.MetaData.Statistics == nil || string(cc.MetaData.Statistics.MinValue) != "confidential-000" {
		t.Fatal("the encrypted column's statistics did not decrypt")
	}
	// Uniform encryption with a plaintext footer hides the statistics too.
	b = write(Encryption{FooterKey: testFooterKey, PlaintextFooter: true})
	f, err = file.Open(b, b.Size(), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for col := range 2 {
		if cc, _ := f.ColumnChunk(0, col); cc.MetaData.Statistics != nil || cc.EncryptedColumnMetadata == nil {
			t.Fatalf("column %d: statistics in the plaintext footer", col)
		}
	}
	if bytes.Contains(b.Bytes(), []byte("confidential")) {
		t.Fatal("plaintext values in a uniformly encrypted file")
	}
	b = write(Encryption{FooterKey: testFooterKey, ColumnKeys: keys, PlaintextFooter: true})
	// A wrong footer key fails the signature.
	if _, err := file.Open(b, b.Size(), file.Options{Decryption: &file.Decryption{FooterKey: testColKey1}}); !errors.Is(err, file.ErrDecrypt) {
		t.Fatalf("wrong signing key: %v", err)
	}

	// Bad options.
	if _, err := New(&Buffer{}, sch, WithEncryption(Encryption{FooterKey: []byte("short")})); err == nil {
		t.Fatal("short footer key accepted")
	}
	if _, err := New(&Buffer{}, sch, WithEncryption(Encryption{FooterKey: testFooterKey, ColumnKeys: map[string]ColumnKey{"nope": {}}})); err == nil {
		t.Fatal("key for a missing column accepted")
	}
}

// checkRanges reads rows of the first row group by ranges, which seeks to
// pages through the offset index (their ordinals are in their AADs).
func checkRanges(t testing.TB, f *file.File, fields []*schema.Field, cols []*vector.Vector) {
	t.Helper()
	n := f.Meta.RowGroups[0].NumRows
	if n < 10 {
		return
	}
	ranges := []file.RowRange{{Start: 1, End: 3}, {Start: n / 2, End: n/2 + 3}, {Start: n - 2, End: n}}
	r, err := f.NewReader(file.ReaderOptions{BatchSize: 2, RowGroups: []int{0}, Ranges: map[int][]file.RowRange{0: ranges}})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]any
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rowsOf(b.Fields, b.Columns)...)
	}
	all := rowsOf(fields, cols)
	var want [][]any
	for _, rg := range ranges {
		want = append(want, all[rg.Start:rg.End]...)
	}
	compareRows(t, want, got)
}

// BenchmarkEncryptionOverhead writes and reads the 1M-row events table
// (zstd) plain and encrypted (AES-GCM, footer and every column), in
// memory: the difference is what encryption costs (issue 33 asks for
// under 15% of the read and of the write time).
//
//	go test -run XXX -bench EncryptionOverhead -count 5 ./writer/ | benchstat -
func BenchmarkEncryptionOverhead(b *testing.B) {
	const rows = 1_000_000
	sch, cols, raw := eventsTable(rows)
	key := []byte("0123456789012345")
	modes := []struct {
		name string
		enc  *Encryption
	}{
		{"plain", nil},
		{"gcm", &Encryption{FooterKey: key}},
		{"gcm_ctr", &Encryption{FooterKey: key, Algorithm: AesGcmCtr}},
	}
	for _, m := range modes {
		opts := []Option{WithCompression(format.Zstd), WithRowGroupRows(rows / 4)}
		if m.enc != nil {
			opts = append(opts, WithEncryption(*m.enc))
		}
		var buf Buffer
		write := func() {
			buf.Reset()
			w, err := New(&buf, sch, opts...)
			if err != nil {
				b.Fatal(err)
			}
			if err := w.WriteBatch(cols); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.Run("write/"+m.name, func(b *testing.B) {
			b.SetBytes(raw)
			for b.Loop() {
				write()
			}
		})
		write()
		data := bytes.Clone(buf.Bytes())
		fopts := file.Options{}
		if m.enc != nil {
			fopts.Decryption = &file.Decryption{FooterKey: key}
		}
		b.Run("read/"+m.name, func(b *testing.B) {
			b.SetBytes(raw)
			for b.Loop() {
				f, err := file.Open(bytes.NewReader(data), int64(len(data)), fopts)
				if err != nil {
					b.Fatal(err)
				}
				r, err := f.NewReader(file.ReaderOptions{})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					batch, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += batch.NumRows
				}
				if n != rows {
					b.Fatalf("%d rows read", n)
				}
			}
		})
	}
}

// bufferOf holds the file at path.
func bufferOf(t testing.TB, path string) *Buffer {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &Buffer{b: data}
}

// TestEncryptedAppend appends twice to files encrypted in each way: the
// new row groups are encrypted as the file's others (same algorithm, file
// AAD, footer mode and column keys), and every row reads back with the
// keys, page indexes and bloom filters too.
func TestEncryptedAppend(t *testing.T) {
	sch, fields := flatSchema(t)
	for ci, ec := range encryptionCases {
		t.Run(ec.name, func(t *testing.T) {
			g := &gen{rng: rand.New(rand.NewPCG(7, uint64(ci))), nullFrac: 0.2, maxList: 3}
			path := filepath.Join(t.TempDir(), "t.parquet")
			opts := []Option{WithEncryption(ec.enc(sch)), WithRowGroupRows(150), WithPageRowLimit(40), WithBloomFilter(100, 0.05)}
			var want [][]any
			for i, n := range []int{200, 90, 300} {
				cols := make([]*vector.Vector, len(fields))
				for k, f := range fields {
					cols[k] = g.vector(f, n)
				}
				want = append(want, rowsOf(fields, cols)...)
				if i == 0 {
					createWith(t, path, sch, cols, opts...)
				} else {
					appendWith(t, path, cols, opts...)
				}
				f := openEncrypted(t, bufferOf(t, path), ec.dec(sch), false)
				compareRows(t, want, readRows(t, f, 64))
				verifyMetadata(t, f)
				checkIndexes(t, f, true)
			}
		})
	}
}

// TestEncryptedAppendKeys: an append to a plaintext file stays plaintext
// whatever WithEncryption says; one to an encrypted file without its keys,
// or with a wrong one, fails naming what is missing and leaves the file
// as it was.
func TestEncryptedAppendKeys(t *testing.T) {
	sch := appendSchema(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.parquet")
	createWith(t, plain, sch, appendBatch(0, 10))
	appendOne(t, plain, 10, 10, WithEncryption(Encryption{FooterKey: testFooterKey}))
	f := openBuffer(t, bufferOf(t, plain))
	if enc, _ := f.Encrypted(); enc {
		t.Fatal("an append encrypted a plaintext file")
	}
	if got := ids(t, f); len(got) != 20 || got[19] != 19 {
		t.Fatalf("ids %v", got)
	}

	enc := filepath.Join(dir, "enc.parquet")
	ck := map[string]ColumnKey{"id": {Key: testColKey1, KeyMetadata: []byte("k1")}}
	createWith(t, enc, sch, appendBatch(0, 10), WithEncryption(Encryption{FooterKey: testFooterKey, ColumnKeys: ck, PlaintextFooter: true}))
	before, err := os.ReadFile(enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts []Option
		want string
	}{
		{"no keys", nil, "takes its footer key"},
		{"no column key", []Option{WithEncryption(Encryption{FooterKey: testFooterKey})}, "column id"},
		{"wrong column key", []Option{WithEncryption(Encryption{FooterKey: testFooterKey, ColumnKeys: map[string]ColumnKey{"id": {Key: testColKey2}}})}, "column id"},
		{"wrong footer key", []Option{WithEncryption(Encryption{FooterKey: testColKey2, ColumnKeys: ck})}, "footer"},
	} {
		_, err := Append(enc, nil, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), enc) {
			t.Errorf("%s: %v, want an error naming %s and %q", c.name, err, enc, c.want)
		}
		if !errors.Is(err, file.ErrEncrypted) && !errors.Is(err, file.ErrDecrypt) {
			t.Errorf("%s: %v is not ErrEncrypted or ErrDecrypt", c.name, err)
		}
		after, err := os.ReadFile(enc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("%s: the failed append changed the file", c.name)
		}
	}
}
