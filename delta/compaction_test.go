package delta

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta/dv"
)

// compactionTable makes a table of commits 0..8 without checkpoints:
// adds, a file gaining a deletion vector (4) and again (7), a remove
// (5), and a commit of another engine's (6) with txn, domainMetadata and
// cdc actions and a path spelled with an escape.
func compactionTable(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := CreateLog(root); err != nil {
		t.Fatal(err)
	}
	typ := &Type{Name: "struct", Fields: []*Field{{Name: "id", Type: &Type{Name: "long"}, Nullable: true}}}
	ss, _ := typ.SchemaString()
	c := &Commit{Protocol: NewProtocol(typ, nil), Metadata: &Metadata{ID: NewTableID(), SchemaString: ss}, Operation: "CREATE TABLE", ReadVersion: -1}
	if _, err := c.Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	for v := int64(1); v <= 8; v++ {
		if v == 6 {
			foreign := `{"commitInfo":{"timestamp":1,"operation":"STREAMING UPDATE"}}
{"txn":{"appId":"app-1","version":4389}}
{"domainMetadata":{"domain":"d1","configuration":"{}","removed":false}}
{"cdc":{"path":"_change_data/c.parquet","partitionValues":{},"size":9,"dataChange":false}}
{"add":{"path":"part%20six.parquet","partitionValues":{},"size":600,"modificationTime":6,"dataChange":true,"stats":"{\"numRecords\":6}"}}
{"txn":{"appId":"app-1","version":4390}}
{"domainMetadata":{"domain":"d1","configuration":"{}","removed":true}}
`
			if err := os.WriteFile(filepath.Join(root, LogDir, fmt.Sprintf("%020d.json", v)), []byte(foreign), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		c := &Commit{ReadVersion: v - 1, Operation: "WRITE", CheckpointInterval: -1}
		c.Adds = []Add{{Path: fmt.Sprintf("part-%d.parquet", v), Size: v * 100, ModificationTime: 1000 + v, DataChange: true, Stats: fmt.Sprintf(`{"numRecords":%d}`, v)}}
		s, err := Open(root, v-1)
		if err != nil {
			t.Fatal(err)
		}
		switch v {
		case 4, 7:
			f := s.Files[0]
			d, err := dv.Inline(dv.Of(0, uint64(v)))
			if err != nil {
				t.Fatal(err)
			}
			c.Removes = []Remove{RemoveOf(f)}
			c.Adds = append(c.Adds, Add{Path: f.URI, Size: f.Size, ModificationTime: 5, DataChange: true, DeletionVector: &d})
			if v == 4 {
				c.Protocol = WithDeletionVectors(s.Protocol)
			}
		case 5:
			c.Removes = []Remove{RemoveOf(s.Files[1])}
		}
		if got, err := c.Write(root, CommitOptions{}); err != nil || got != v {
			t.Fatalf("version %d: %v", got, err)
		}
	}
	return root
}

// TestLogCompaction compacts commits 2..7: the file holds each logical
// file's newest action, the last txn of the app and the domain's
// tombstone, and no commitInfo or cdc; every version reads the same with
// it as without; it stands in for its commits (moved away) when a
// snapshot reaches version 7 or later, and is not used for a version
// inside its range.
func TestLogCompaction(t *testing.T) {
	root := compactionTable(t)
	log := filepath.Join(root, LogDir)
	without := map[int64]string{}
	for v := int64(0); v <= 8; v++ {
		without[v] = snapState(t, root, v)
	}
	if err := WriteCompaction(root, 2, 7, nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(log, compactionName(2, 7)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, c := range []struct {
		what string
		n    int
	}{
		{`{"commitInfo":`, 0}, {`{"cdc":`, 0}, {`{"protocol":`, 1}, {`{"metaData":`, 0},
		{`{"txn":`, 1}, {`"version":4390`, 1}, {`{"domainMetadata":`, 1}, {`"removed":true`, 1},
		// Adds of 4, 5, six and 7, and of 1 and 2 with their vectors (2
		// and 3 were added and then replaced or removed in the range);
		// removes of 1 and 2 without a vector and of 3.
		{`{"add":`, 6}, {`{"remove":`, 3}, {`"deletionVector"`, 2},
	} {
		if got := strings.Count(text, c.what); got != c.n {
			t.Errorf("%s appears %d times, want %d:\n%s", c.what, got, c.n, text)
		}
	}
	for v := int64(0); v <= 8; v++ {
		if got := snapState(t, root, v); got != without[v] {
			t.Fatalf("version %d with the compaction:\n%s\nwithout:\n%s", v, got, without[v])
		}
	}
	// Without commits 2..7, versions 7 and 8 read from the compaction;
	// version 5 cannot be read.
	hidden := t.TempDir()
	for v := int64(2); v <= 7; v++ {
		name := fmt.Sprintf("%020d.json", v)
		if err := os.Rename(filepath.Join(log, name), filepath.Join(hidden, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []int64{7, 8} {
		if got := snapState(t, root, v); got != without[v] {
			t.Fatalf("version %d from the compaction:\n%s\nfrom the commits:\n%s", v, got, without[v])
		}
	}
	if _, err := Open(root, 5); !errors.Is(err, ErrVersion) {
		t.Fatalf("version 5 without its commits: %v", err)
	}
}

// TestCompactLog compacts what follows the newest checkpoint, once.
func TestCompactLog(t *testing.T) {
	root := compactionTable(t)
	if from, to, err := CompactLog(root, nil); err != nil || from != 0 || to != 8 {
		t.Fatalf("CompactLog: %d..%d, %v", from, to, err)
	}
	if from, to, err := CompactLog(root, nil); err != nil || from != -1 || to != -1 {
		t.Fatalf("CompactLog again: %d..%d, %v", from, to, err)
	}
	if err := WriteCheckpoint(root, 3, nil); err != nil {
		t.Fatal(err)
	}
	if from, to, err := CompactLog(root, nil); err != nil || from != 4 || to != 8 {
		t.Fatalf("CompactLog after the checkpoint of version 3: %d..%d, %v", from, to, err)
	}
	want := snapState(t, root, 8)
	for v := int64(0); v <= 8; v++ {
		os.Remove(filepath.Join(root, LogDir, fmt.Sprintf("%020d.json", v)))
	}
	// Version 8 from the checkpoint and the compaction alone (the latest
	// version is the newest commit: 8 stays).
	if err := os.WriteFile(filepath.Join(root, LogDir, fmt.Sprintf("%020d.json", 8)), []byte(`{"commitInfo":{}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := snapState(t, root, 8); got != want {
		t.Fatalf("from the checkpoint and the compaction:\n%s\nwant:\n%s", got, want)
	}
}

// TestCompactionRefused: a bad range, a table with a writer feature this
// package does not implement, and an action the reconciliation does not
// know are refused, and no file is written.
func TestCompactionRefused(t *testing.T) {
	root := compactionTable(t)
	log := filepath.Join(root, LogDir)
	for _, r := range [][2]int64{{3, 3}, {5, 2}, {-1, 2}} {
		if err := WriteCompaction(root, r[0], r[1], nil); err == nil {
			t.Errorf("range %d..%d accepted", r[0], r[1])
		}
	}
	// An unknown action in commit 9.
	if err := os.WriteFile(filepath.Join(log, fmt.Sprintf("%020d.json", 9)), []byte(`{"commitInfo":{}}`+"\n"+`{"futureAction":{"x":1}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteCompaction(root, 8, 9, nil); err == nil || !strings.Contains(err.Error(), `"futureAction"`) {
		t.Errorf("unknown action: %v", err)
	}
	// A writer feature this package does not implement, from version 10.
	if err := os.WriteFile(filepath.Join(log, fmt.Sprintf("%020d.json", 10)),
		[]byte(`{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors","inCommitTimestamp"]}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteCompaction(root, 1, 10, nil); err == nil || !strings.Contains(err.Error(), "inCommitTimestamp") {
		t.Errorf("unknown writer feature: %v", err)
	}
	names, _ := os.ReadDir(log)
	for _, n := range names {
		if strings.Contains(n.Name(), "compacted") {
			t.Errorf("a compaction was written: %s", n.Name())
		}
	}
}
