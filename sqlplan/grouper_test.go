package sqlplan

import (
	"math/rand/v2"
	"testing"
)

// Keys met before the groups were many enough for the dense array (an
// unordered scan's first batch of high keys) move into it later; every
// key keeps its group throughout.
func TestGrouperMovesEarlyKeysIntoDenseArray(t *testing.T) {
	g := newGrouper([]Type{tInt})
	ids := map[int64]int32{}
	check := func(keys []int64) {
		t.Helper()
		c := &Col{T: tInt, Len: len(keys), I: keys}
		gids := make([]int32, len(keys))
		g.assign([]*Col{c}, len(keys), gids)
		for i, k := range keys {
			if id, ok := ids[k]; ok && id != gids[i] {
				t.Fatalf("key %d: group %d, was %d", k, gids[i], id)
			}
			ids[k] = gids[i]
		}
	}
	var high []int64
	for k := int64(1_000_000); k < 1_000_500; k++ {
		high = append(high, k)
	}
	check(high)
	r := rand.New(rand.NewPCG(5, 6))
	for from := int64(0); from < 1_200_000; from += 4096 {
		var batch []int64
		for k := from; k < from+4096; k += 4 {
			batch = append(batch, k, k)
		}
		batch = append(batch, high[r.IntN(len(high))])
		check(batch)
	}
	check(high)
	if g.n != len(ids) {
		t.Fatalf("%d groups for %d keys", g.n, len(ids))
	}
	if len(g.ints) != 0 {
		t.Errorf("%d keys are still in the map: they fit the dense array", len(g.ints))
	}
}

// An aggregation of a whole table by a key with a wide footer range
// reserves its groups up front; the answers are those of any other run.
func TestAggregationReservesGroupsFromFooters(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE w AS SELECT i % 100000 AS k, i AS v, i * 0.5 AS d FROM range(200000) t(i)")
	got := queryAll(t, e, "SELECT count(*), sum(n), sum(s), min(m), max(x) FROM (SELECT k, count(*) AS n, sum(v) AS s, min(d) AS m, max(v) AS x, avg(d) AS a FROM w GROUP BY k)")
	want := []string{"100000", "200000", "19999900000", "0.0", "199999"}
	for i, w := range want {
		if g := fmtAny(got[0][i]); g != w {
			t.Errorf("column %d: got %s, want %s", i, g, w)
		}
	}
	if g, d := groupsHint(nil, nil); g != 0 || d != -1 {
		t.Errorf("no keys: hint %d %d", g, d)
	}
}
