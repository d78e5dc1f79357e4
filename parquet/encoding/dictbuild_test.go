package encoding

import (
	"fmt"
	"testing"
)

// TestByteArrayDictEntries inserts streams of few, many and colliding
// distinct values, with resets between them: every index must name an
// entry equal to the value inserted, equal values must share an index, and
// entries must be distinct (the recent-value cache in front of the hash
// table must never answer for another value).
func TestByteArrayDictEntries(t *testing.T) {
	streams := map[string]func(i int) string{
		"few":  func(i int) string { return fmt.Sprintf("category-%d", (i*7)%10) },
		"many": func(i int) string { return fmt.Sprintf("user-%d", (i*7919)%20000) },
		// Same length and end bytes: the cache key cannot tell them apart.
		"same ends": func(i int) string { return fmt.Sprintf("ab%03dyz-%s", i%300, "tail") },
		"short":     func(i int) string { return string([]byte{byte(i % 3), byte(i % 5)})[:i%3] },
		"mixed": func(i int) string {
			if i%2 == 0 {
				return "hot"
			}
			return fmt.Sprint(i)
		},
	}
	var d ByteArrayDict
	for round := 0; round < 2; round++ {
		for name, gen := range streams {
			d.Reset()
			var data []byte
			offsets := []int32{0}
			for i := 0; i < 30000; i++ {
				data = append(data, gen(i)...)
				offsets = append(offsets, int32(len(data)))
			}
			idx := d.Insert(nil, data, offsets)
			seen := map[string]int32{}
			for i, x := range idx {
				v := string(data[offsets[i]:offsets[i+1]])
				got := string(d.Data()[d.Offsets()[x]:d.Offsets()[x+1]])
				if got != v {
					t.Fatalf("%s: value %d %q got index %d, entry %q", name, i, v, x, got)
				}
				if prev, ok := seen[v]; ok && prev != x {
					t.Fatalf("%s: %q has indices %d and %d", name, v, prev, x)
				}
				seen[v] = x
			}
			if d.Len() != len(seen) {
				t.Fatalf("%s: %d entries for %d distinct values", name, d.Len(), len(seen))
			}
		}
	}
}
