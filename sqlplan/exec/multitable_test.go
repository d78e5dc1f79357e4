package exec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMultiTable checks the table against a map while it grows from
// empty to over 50,000 keys, with keys that differ only in a NULL bit
// or an extreme value.
func TestMultiTable(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	var tab multiTable
	want := map[multiKey]int32{}
	for i := range 200000 {
		var k multiKey
		k.v[0], k.v[1] = r.Int64N(300), r.Int64N(200)
		switch i % 11 {
		case 0:
			k.v[2] = math.MinInt64
		case 1:
			k.nulls = 1 << 1
			k.v[1] = 0 // as a NULL key's value reads
		case 2:
			k.v[3] = int64(r.IntN(4)) << 40
		}
		h := k.hash()
		id, ok := tab.get(&k, h)
		wid, wok := want[k]
		if ok != wok || ok && id != wid {
			t.Fatalf("key %v: got %d %v, want %d %v", k, id, ok, wid, wok)
		}
		if !ok {
			tab.put(&k, h, int32(len(want)))
			want[k] = int32(len(want))
		}
	}
	if tab.len() != len(want) || len(want) < 50000 {
		t.Fatalf("%d keys, map %d", tab.len(), len(want))
	}
	for k, id := range want {
		if got, ok := tab.get(&k, k.hash()); !ok || got != id {
			t.Fatalf("key %v lost", k)
		}
	}
}
