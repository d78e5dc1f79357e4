package dml

import (
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/parquet/vector"
)

// split groups rows by their partition values in the order partitions
// first come (an empty string is NULL, as Delta has it), and keeps a
// batch whole when all its rows fall in one partition.
func TestDeltaLayoutSplit(t *testing.T) {
	dt, err := delta.ParseSchema(`{"type":"struct","fields":[` +
		`{"name":"id","type":"long","nullable":true,"metadata":{}},` +
		`{"name":"region","type":"string","nullable":true,"metadata":{}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewDeltaLayout(dt, []string{"REGION"})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.PartitionKeys(); len(got) != 1 || got[0] != "region" {
		t.Fatalf("PartitionKeys = %v", got)
	}
	batch := func(ids []int64, regions []string, nulls []bool) []*vector.Vector {
		id := &vector.Vector{Kind: vector.Int64, Len: len(ids), Int64s: ids}
		r := &vector.Vector{Kind: vector.ByteArray, Len: len(regions), Offsets: []int32{0}}
		if nulls != nil {
			r.Valid = vector.NewBitmap(len(regions), true)
		}
		for i, s := range regions {
			if nulls != nil && nulls[i] {
				r.Valid.Clear(i)
			}
			r.Data = append(r.Data, s...)
			r.Offsets = append(r.Offsets, int32(len(r.Data)))
		}
		return []*vector.Vector{id, r}
	}
	one := batch([]int64{1, 2}, []string{"eu", "eu"}, nil)
	mixed := batch([]int64{3, 4, 5, 6}, []string{"us", "", "eu", ""}, []bool{false, true, false, false})
	parts, err := l.split([][]*vector.Vector{one, mixed})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		value *string
		ids   []int64
	}{{ptr("eu"), []int64{1, 2, 5}}, {ptr("us"), []int64{3}}, {nil, []int64{4, 6}}}
	if len(parts) != len(want) {
		t.Fatalf("%d partitions, want %d", len(parts), len(want))
	}
	for i, w := range want {
		p := parts[i]
		if v := p.values[0]; (v == nil) != (w.value == nil) || v != nil && *v != *w.value {
			t.Errorf("partition %d is %v, want %v", i, v, w.value)
		}
		var ids []int64
		for _, b := range p.batches {
			ids = append(ids, b[0].Int64s[:b[0].Len]...)
			if got := len(l.dataVectors(b)); got != 1 {
				t.Errorf("the data files hold %d columns, want 1", got)
			}
		}
		if len(ids) != len(w.ids) {
			t.Fatalf("partition %d holds %v, want %v", i, ids, w.ids)
		}
		for k := range ids {
			if ids[k] != w.ids[k] {
				t.Errorf("partition %d holds %v, want %v", i, ids, w.ids)
			}
		}
	}
	if parts[0].batches[0][0] != one[0] {
		t.Error("a batch of one partition was copied")
	}
}

func ptr(s string) *string { return &s }
