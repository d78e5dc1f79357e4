package scan

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// genTable writes nfiles files of random rows under dir (in hive partition
// folders part=K) with small pages, page indexes, bloom filters and several
// row groups, and returns every row as a map for the naive evaluator.
func genTable(t *testing.T, dir string, rng *rand.Rand, nfiles, rowsPerFile int) []map[string]any {
	sch, err := writer.NewSchema(
		writer.Int64("id").Required(),
		writer.Int32("k").Optional(),
		writer.Double("x").Optional(),
		writer.String("s").Optional(),
		writer.Date("d").Optional(),
	)
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"apple", "banana", "cherry", "date", "elder", "fig", "grape", "", "kiwi", "lemon"}
	var all []map[string]any
	id := int64(0)
	for fi := 0; fi < nfiles; fi++ {
		part := fi % 3
		sub := filepath.Join(dir, fmt.Sprintf("part=%d", part))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		w, err := writer.Create(filepath.Join(sub, fmt.Sprintf("f%d.parquet", fi)), sch,
			writer.WithPageRowLimit(50), writer.WithRowGroupRows(int64(rowsPerFile/3+1)),
			writer.WithPageIndex(true), writer.WithBloomFilter(1000, 0.01))
		if err != nil {
			t.Fatal(err)
		}
		n := rowsPerFile
		cols := []*vector.Vector{
			{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)},
			{Kind: vector.Int32, Len: n, Int32s: make([]int32, n), Valid: vector.NewBitmap(n, true)},
			{Kind: vector.Float64, Len: n, Float64s: make([]float64, n), Valid: vector.NewBitmap(n, true)},
			{Kind: vector.ByteArray, Len: n, Offsets: []int32{0}, Valid: vector.NewBitmap(n, true)},
			{Kind: vector.Int32, Len: n, Int32s: make([]int32, n), Valid: vector.NewBitmap(n, true)},
		}
		for i := 0; i < n; i++ {
			row := map[string]any{"part": int64(part)}
			id += int64(1 + rng.Intn(3))
			cols[0].Int64s[i] = id
			row["id"] = id
			if rng.Intn(10) == 0 {
				cols[1].Valid.Clear(i)
				row["k"] = nil
			} else {
				k := int32(rng.Intn(200) - 100)
				cols[1].Int32s[i] = k
				row["k"] = int64(k)
			}
			switch r := rng.Intn(20); {
			case r == 0:
				cols[2].Valid.Clear(i)
				row["x"] = nil
			case r == 1:
				cols[2].Float64s[i] = math.NaN()
				row["x"] = math.NaN()
			default:
				x := math.Round(rng.NormFloat64()*1000) / 100
				cols[2].Float64s[i] = x
				row["x"] = x
			}
			if rng.Intn(8) == 0 {
				cols[3].Valid.Clear(i)
				row["s"] = nil
			} else {
				s := words[rng.Intn(len(words))]
				if rng.Intn(4) == 0 {
					s += fmt.Sprint(rng.Intn(10))
				}
				cols[3].Data = append(cols[3].Data, s...)
				row["s"] = s
			}
			cols[3].Offsets = append(cols[3].Offsets, int32(len(cols[3].Data)))
			if rng.Intn(10) == 0 {
				cols[4].Valid.Clear(i)
				row["d"] = nil
			} else {
				d := int32(19000 + fi*10 + i/10)
				cols[4].Int32s[i] = d
				row["d"] = time.Unix(int64(d)*86400, 0).UTC()
			}
			all = append(all, row)
		}
		if err := w.WriteBatch(cols); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return all
}

// naive evaluates a predicate on a row: true, false or nil (NULL).
func naive(p Predicate, row map[string]any) *bool {
	yes, no := true, false
	b := func(v bool) *bool {
		if v {
			return &yes
		}
		return &no
	}
	switch x := p.(type) {
	case And:
		res := b(true)
		for _, t := range x.Terms {
			r := naive(t, row)
			if r != nil && !*r {
				return b(false)
			}
			if r == nil {
				res = nil
			}
		}
		return res
	case Or:
		res := b(false)
		for _, t := range x.Terms {
			r := naive(t, row)
			if r != nil && *r {
				return b(true)
			}
			if r == nil {
				res = nil
			}
		}
		return res
	case Not:
		r := naive(x.Term, row)
		if r == nil {
			return nil
		}
		return b(!*r)
	case IsNull:
		return b((row[x.Column] == nil) != x.Not)
	case Prefix:
		v := row[x.Column]
		if v == nil {
			return nil
		}
		return b(strings.HasPrefix(v.(string), x.Prefix))
	case Compare:
		v := row[x.Column]
		if v == nil {
			return nil
		}
		return b(holds(x.Op, naiveCmp(v, x.Value)))
	case In:
		v := row[x.Column]
		if v == nil {
			return nil
		}
		if x.Ints != nil {
			return b(x.Ints.Has(v.(int64)) != x.Not)
		}
		for _, c := range x.Values {
			if naiveCmp(v, c) == 0 {
				return b(!x.Not)
			}
		}
		return b(x.Not)
	}
	panic("unknown predicate")
}

func naiveCmp(v, c any) int {
	switch x := v.(type) {
	case int64:
		switch y := c.(type) {
		case int64:
			return cmpF(float64(x), float64(y))
		case float64:
			return cmpF(float64(x), y)
		}
	case float64:
		switch y := c.(type) {
		case int64:
			return cmpF(x, float64(y))
		case float64:
			return cmpF(x, y)
		}
	case string:
		return cmpS(x, c.(string))
	case time.Time:
		return x.Compare(c.(time.Time))
	}
	panic(fmt.Sprintf("naiveCmp %T %T", v, c))
}

func randPred(rng *rand.Rand, depth int) Predicate {
	if depth > 0 && rng.Intn(3) == 0 {
		n := 2 + rng.Intn(2)
		terms := make([]Predicate, n)
		for i := range terms {
			terms[i] = randPred(rng, depth-1)
		}
		switch rng.Intn(3) {
		case 0:
			return And{terms}
		case 1:
			return Or{terms}
		default:
			return Not{terms[0]}
		}
	}
	op := Op(rng.Intn(6))
	switch rng.Intn(7) {
	case 0:
		return Compare{"id", op, int64(rng.Intn(3000))}
	case 1:
		if rng.Intn(3) == 0 {
			return In{Column: "k", Values: []any{int64(rng.Intn(200) - 100), int64(rng.Intn(200) - 100)}, Not: rng.Intn(2) == 0}
		}
		return Compare{"k", op, float64(rng.Intn(200)-100) + 0.5*float64(rng.Intn(2))}
	case 2:
		if rng.Intn(5) == 0 {
			return Compare{"x", op, math.NaN()}
		}
		return Compare{"x", op, rng.NormFloat64() * 10}
	case 3:
		words := []string{"apple", "banana", "fig", "", "kiwi3", "zzz", "a"}
		if rng.Intn(3) == 0 {
			w := words[rng.Intn(len(words))]
			return Prefix{"s", w[:min(len(w), 1+rng.Intn(2))]}
		}
		return Compare{"s", op, words[rng.Intn(len(words))]}
	case 4:
		return Compare{"d", op, time.Unix(int64(19000+rng.Intn(200))*86400, 0).UTC()}
	case 5:
		return IsNull{Column: []string{"k", "x", "s", "d"}[rng.Intn(4)], Not: rng.Intn(2) == 0}
	default:
		if rng.Intn(3) == 0 {
			// A join's build keys: a set of ids (sorted: pruning applies)
			// or of partition values.
			col, span, lo := "id", 3000, 0
			switch rng.Intn(4) {
			case 0:
				col, span = "part", 4
			case 1:
				col, span, lo = "k", 200, -100 // nullable INT32
			}
			keys := make([]int64, rng.Intn(40))
			lo += rng.Intn(span)
			for i := range keys {
				keys[i] = int64(lo + rng.Intn(1+span/10))
			}
			if rng.Intn(4) == 0 {
				keys = append(keys, 1<<40) // a hash set, not a bitmap
			}
			return In{Column: col, Ints: intset.New(keys), Not: rng.Intn(4) == 0}
		}
		return Compare{"part", op, int64(rng.Intn(3))}
	}
}

func TestPruningNeverChangesResults(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	dir := t.TempDir()
	all := genTable(t, dir, rng, 6, 600)
	tbl, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	var fired Stats
	for iter := 0; iter < 300; iter++ {
		p := randPred(rng, 2)
		var want []int64
		for _, row := range all {
			if r := naive(p, row); r != nil && *r {
				want = append(want, row["id"].(int64))
			}
		}
		for _, noPrune := range []bool{false, true} {
			req := Request{Columns: []string{"id"}, Filter: p, NoPruning: noPrune, BatchSize: 37, Threads: 1 + iter%3, Unordered: iter%2 == 0}
			rows, st := collect(t, tbl, req)
			var got []int64
			for _, r := range rows {
				got = append(got, r[0].(int64))
			}
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("predicate %s (noPruning=%v): %d rows, want %d", p, noPrune, len(got), len(want))
			}
			if !noPrune {
				fired.FilesPruned += st.FilesPruned
				fired.RowGroupsPrunedByStats += st.RowGroupsPrunedByStats
				fired.RowGroupsPrunedByBloom += st.RowGroupsPrunedByBloom
				fired.PagesPruned += st.PagesPruned
			}
		}
	}
	t.Logf("pruned over all predicates: %+v", fired)
	if fired.FilesPruned == 0 || fired.RowGroupsPrunedByStats == 0 || fired.PagesPruned == 0 || fired.RowGroupsPrunedByBloom == 0 {
		t.Fatalf("some pruning mechanism never fired: %+v", fired)
	}
}

func TestPagePruningReadsFewerBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dir := t.TempDir()
	genTable(t, dir, rng, 1, 3000)
	tbl, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	p := And{[]Predicate{Compare{"id", Ge, int64(1000)}, Compare{"id", Lt, int64(1100)}}}
	_, pruned := collect(t, tbl, Request{Columns: []string{"id", "s", "x"}, Filter: p})
	_, full := collect(t, tbl, Request{Columns: []string{"id", "s", "x"}, Filter: p, NoPruning: true})
	t.Logf("pruned: %s", pruned.String())
	t.Logf("full:   %s", full.String())
	if pruned.PagesPruned == 0 || pruned.BytesRead*2 > full.BytesRead || pruned.RowsDecoded*5 > full.RowsDecoded {
		t.Fatalf("page pruning did not cut the reading: %d vs %d bytes, %d vs %d rows", pruned.BytesRead, full.BytesRead, pruned.RowsDecoded, full.RowsDecoded)
	}
}

// TestHivePartitionPruning queries a folder of 100 files in hive
// partitions (year=/month=) and checks that partition pruning shows in
// the statistics and the result is right.
func TestHivePartitionPruning(t *testing.T) {
	dir := t.TempDir()
	sch, err := writer.NewSchema(writer.Int64("v").Required())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		year, month := 2020+i/25, 1+i%12
		sub := filepath.Join(dir, fmt.Sprintf("year=%d", year), fmt.Sprintf("month=%02d", month))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		w, err := writer.Create(filepath.Join(sub, fmt.Sprintf("part-%03d.parquet", i)), sch)
		if err != nil {
			t.Fatal(err)
		}
		v := &vector.Vector{Kind: vector.Int64, Len: 10, Int64s: make([]int64, 10)}
		for j := range v.Int64s {
			v.Int64s[j] = int64(i*10 + j)
		}
		if err := w.WriteBatch([]*vector.Vector{v}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if len(tbl.Files) != 100 || tbl.Column("year") == nil || tbl.Column("year").PartitionType != PartitionInt64 {
		t.Fatalf("%d files, columns %+v", len(tbl.Files), tbl.Columns)
	}
	rows, st := collect(t, tbl, Request{Columns: []string{"v", "year", "month"},
		Filter: And{[]Predicate{Compare{"year", Eq, int64(2021)}, Compare{"month", Le, int64(2)}}}})
	// Files 25..49 are 2021; months 1 and 2 are i%12 in {0, 1}.
	want := 0
	for i := 25; i < 50; i++ {
		if i%12 <= 1 {
			want += 10
		}
	}
	if len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	for _, r := range rows {
		if r[1].(int64) != 2021 || r[2].(int64) > 2 {
			t.Fatalf("row %v outside the partitions asked for", r)
		}
	}
	if st.Files != 100 || st.FilesPruned != 100-int64(want/10) {
		t.Fatalf("stats: %s", st.String())
	}
	t.Logf("%s", st.String())
}

// TestFilterOnCodedStrings filters a dictionary-encoded string column
// (evaluated once per dictionary entry) and returns it: plain unless the
// request asks for codes, with the rows and values a naive filter gives.
func TestFilterOnCodedStrings(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	dir := t.TempDir()
	all := genTable(t, dir, rng, 3, 900)
	tbl, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	preds := []Predicate{
		Compare{"s", Eq, "fig"},
		Compare{"s", Ge, "grape"},
		In{Column: "s", Values: []any{"apple", "kiwi3", ""}},
		Not{In{Column: "s", Values: []any{"apple", "banana"}}},
		Prefix{"s", "ch"},
		And{[]Predicate{Prefix{"s", "b"}, Compare{"k", Gt, int64(0)}}},
		Or{[]Predicate{Compare{"s", Lt, "c"}, IsNull{Column: "s"}}},
	}
	for _, p := range preds {
		want := map[int64]any{}
		for _, row := range all {
			if r := naive(p, row); r != nil && *r {
				want[row["id"].(int64)] = row["s"]
			}
		}
		// Batches of whole words of the truth bitmap, and of less and more.
		for k, codes := range [][]string{nil, {"s"}, nil, {"s"}} {
			bs := []int{64, 64, 37, 130}[k]
			s, err := tbl.Scan(context.Background(), Request{Columns: []string{"s", "id"}, Filter: p, Codes: codes, BatchSize: bs, Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for {
				b, err := s.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				sv, ids := b.Columns[0], b.Columns[1]
				if codes == nil && sv.Dict != nil {
					t.Fatalf("%s: the column came back coded without being asked", p)
				}
				for i := 0; i < b.NumRows; i++ {
					w, ok := want[ids.Int64s[i]]
					if !ok {
						t.Fatalf("%s: row id %d should not pass", p, ids.Int64s[i])
					}
					var g any
					if !sv.IsNull(i) {
						g = string(sv.Bytes(i))
					}
					if g != w {
						t.Fatalf("%s: row id %d has s = %v, want %v", p, ids.Int64s[i], g, w)
					}
					got++
				}
			}
			s.Close()
			if got != len(want) {
				t.Fatalf("%s (codes %v): %d rows, want %d", p, codes, got, len(want))
			}
		}
	}
}
