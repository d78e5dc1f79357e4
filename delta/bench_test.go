package delta

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/internal/deltatest"
)

// BenchmarkOpen reconstructs the snapshot of a table of 20,000 files,
// from a classic checkpoint or from one JSON commit.
func BenchmarkOpen(b *testing.B) {
	const files = 20000
	for _, kind := range []string{"checkpoint", "json"} {
		b.Run(kind, func(b *testing.B) {
			root := filepath.Join(b.TempDir(), "t")
			tb := deltatest.New(b, root)
			schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil), deltatest.StructField("s", "string", true, nil))
			acts := []any{&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, []string{"s"}, nil)}
			for i := 0; i < files; i++ {
				s := fmt.Sprintf("p%d", i%100)
				acts = append(acts, &deltatest.Add{Path: fmt.Sprintf("s=%s/part-%05d.parquet", s, i), PartitionValues: map[string]*string{"s": &s},
					Size: 12345, DataChange: true,
					Stats: fmt.Sprintf(`{"numRecords":1000,"minValues":{"id":%d},"maxValues":{"id":%d},"nullCount":{"id":0}}`, i*1000, i*1000+999)})
			}
			tb.Commit(acts...)
			if kind == "checkpoint" {
				tb.Checkpoint(deltatest.Classic, 1)
			}
			for b.Loop() {
				s, err := Open(root, -1)
				if err != nil {
					b.Fatal(err)
				}
				if len(s.Files) != files {
					b.Fatalf("%d files", len(s.Files))
				}
			}
		})
	}
}
