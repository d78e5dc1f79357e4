package file

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/value"
)

// fuzzLimits bound the memory one fuzzed file may take: pages of a few
// bytes can claim sizes up to 2 GiB, which the reader may legitimately
// try to honour without limits.
var fuzzLimits = Limits{MaxPageSize: 16 << 20, MaxDictionarySize: 16 << 20, MaxBatchBytes: 64 << 20, MaxBatchValues: 1 << 20}

// fuzzAllocBound is the most one input may allocate in all (the sum of
// every allocation, not the peak): above what the limits let a page or a
// batch take and what any conformance file needs, far below what an
// allocation sized by a claim takes.
const fuzzAllocBound = 256 << 20

// fuzzRowBudget bounds the rows read from one fuzzed file, so that a page
// of a few bytes claiming billions of null rows does not take minutes. It
// is above the row count of every conformance file: those are read whole.
const fuzzRowBudget = 1 << 17

// fuzzTimeout is how long one input may take before it counts as a hang.
const fuzzTimeout = 10 * time.Second

// FuzzOpen reads arbitrary bytes as a Parquet file end to end: open it
// (eagerly, then with lazy column metadata and checksums), read every
// column of every row group through a Reader and every value out of the
// batches, read the row groups again by page-index ranges, and load every
// column and offset index and bloom filter. Errors are fine; panics, hangs
// and allocations sized by a claim are not. It is seeded with every file of
// the conformance suite (data/ and bad_data/).
func FuzzOpen(f *testing.F) {
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	for _, sub := range []string{"data", "bad_data"} {
		for _, p := range testfiles.Glob(f, sub, ".parquet", ".parquet.encrypted") {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// A hang crashes the worker, so that the fuzzer keeps the input.
		watchdog := time.AfterFunc(fuzzTimeout, func() { panic("FuzzOpen: one input took more than " + fuzzTimeout.String()) })
		defer watchdog.Stop()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, lazy := range []bool{false, true} {
			fuzzReadFile(t, b, Options{Name: "fuzz.parquet", LazyColumns: lazy, SkipChecksums: !lazy, Limits: fuzzLimits})
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > fuzzAllocBound {
			t.Fatalf("reading a file of %d bytes allocated %d MiB", len(b), grew>>20)
		}
	})
}

func fuzzReadFile(t *testing.T, b []byte, opts Options) {
	file, err := Open(bytes.NewReader(b), int64(len(b)), opts)
	if err != nil {
		return
	}
	_ = file.Schema.String()
	budget := fuzzRowBudget
	if fields, err := file.Schema.LogicalFields(); err == nil && len(fields) > 0 {
		ro := ReaderOptions{BatchSize: 257}
		if opts.LazyColumns {
			// The second pass takes string columns as dictionary codes.
			for _, fl := range fields {
				ro.Codes = append(ro.Codes, fl.Name)
			}
		}
		budget = readEveryValue(t, file, ro, budget)
	}
	for rg := range file.Meta.RowGroups {
		ranged := false
		for col := range file.Schema.Leaves {
			c, err := file.Chunk(rg, col)
			if err != nil {
				continue
			}
			c.ColumnIndex()
			if oi, err := c.OffsetIndex(); err == nil && oi != nil {
				ranged = true
			}
			c.BloomFilter()
			// Each column on its own, by the column reader.
			if cr, err := c.NewColumnReader(); err == nil {
				d := cr.NewLeafData()
				for budget > 0 {
					d.Reset()
					n, err := cr.ReadRows(d, 1000)
					budget -= n
					if err != nil || n == 0 {
						break
					}
				}
				cr.Release()
			}
		}
		// The middle third of the row group, through the offset indexes.
		if n := file.Meta.RowGroups[rg].NumRows; ranged && budget > 0 && n > 0 {
			if fields, err := file.Schema.LogicalFields(); err == nil && len(fields) > 0 {
				budget = readEveryValue(t, file, ReaderOptions{BatchSize: 100, RowGroups: []int{rg},
					Ranges: map[int][]RowRange{rg: {{Start: n / 3, End: max(n/3+1, 2*n/3)}}}}, budget)
			}
		}
	}
}

// readEveryValue reads batches until the end, an error or the budget, and
// gets every value out of them; it returns the budget left.
func readEveryValue(t *testing.T, file *File, opts ReaderOptions, budget int) int {
	r, err := file.NewReader(opts)
	if err != nil {
		return budget
	}
	for budget > 0 {
		b, err := r.Next()
		if err == io.EOF {
			return budget
		}
		if err != nil {
			return budget
		}
		budget -= b.NumRows
		for c, v := range b.Columns {
			if v.Len != b.NumRows {
				t.Fatalf("column %d holds %d rows of a batch of %d", c, v.Len, b.NumRows)
			}
			for j := 0; j < b.NumRows; j++ {
				_ = value.Get(b.Fields[c], v, j)
			}
		}
	}
	return budget
}

// fuzzDecryptions are the keys FuzzDecrypt opens every input with: those
// of parquet-testing's encrypted files (data/README.md) and of the
// written seeds under testdata/fuzz/FuzzDecrypt, 128 and 256-bit, with
// and without the AAD prefix "tester".
var fuzzDecryptions = []*Decryption{
	{FooterKey: []byte("0123456789012345"), ColumnKeys: map[string][]byte{
		"double_field": []byte("1234567890123450"), "float_field": []byte("1234567890123451")}},
	{FooterKey: []byte("0123456789012345"), AADPrefix: []byte("tester"), ColumnKeys: map[string][]byte{
		"double_field": []byte("1234567890123450"), "float_field": []byte("1234567890123451")}},
	{FooterKey: []byte("01234567890123456789012345678901"), ColumnKeys: map[string][]byte{
		"double_field": []byte("12345678901234567890123456789012"), "float_field": []byte("12345678901234567890123456789013"),
		"boolean_field": []byte("12345678901234567890123456789014"), "int32_field": []byte("12345678901234567890123456789015"),
		"ba_field": []byte("12345678901234567890123456789016"), "flba_field": []byte("12345678901234567890123456789017"),
		"int64_field.list.element": []byte("12345678901234567890123456789018"), "int96_field": []byte("12345678901234567890123456789019")}},
}

// FuzzDecrypt reads arbitrary bytes as an encrypted Parquet file with
// keys, so that the bytes reach decryption and, where they authenticate
// (or are pages in CTR mode, which nothing authenticates), the parsing of
// what decrypts: footers, column metadata, page headers, pages, page
// indexes and bloom filters. Errors are fine; panics, hangs and
// allocations sized by a claim are not. It is seeded with every
// encrypted file of the conformance suite and the files written by our
// writer in testdata/fuzz/FuzzDecrypt.
func FuzzDecrypt(f *testing.F) {
	for _, p := range testfiles.Glob(f, "data", ".parquet.encrypted") { // data/aes256 too
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		watchdog := time.AfterFunc(fuzzTimeout, func() { panic("FuzzDecrypt: one input took more than " + fuzzTimeout.String()) })
		defer watchdog.Stop()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i, d := range fuzzDecryptions {
			fuzzReadFile(t, b, Options{Name: "fuzz.parquet", Decryption: d, LazyColumns: i == 0, SkipChecksums: i == 1, Limits: fuzzLimits})
		}
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > fuzzAllocBound {
			t.Fatalf("reading a file of %d bytes allocated %d MiB", len(b), grew>>20)
		}
	})
}
