package delta

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func newTestTable(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "t")
	if err := CreateLog(root); err != nil {
		t.Fatal(err)
	}
	typ := &Type{Name: "struct", Fields: []*Field{{Name: "id", Type: &Type{Name: "long"}, Nullable: true, PhysicalName: "id"}}}
	ss, err := typ.SchemaString()
	if err != nil {
		t.Fatal(err)
	}
	c := &Commit{Protocol: NewProtocol(typ, nil), Metadata: &Metadata{ID: NewTableID(), SchemaString: ss}, Operation: "CREATE TABLE", ReadVersion: -1, BlindAppend: true}
	if v, err := c.Write(root, CommitOptions{}); err != nil || v != 0 {
		t.Fatalf("create: version %d, %v", v, err)
	}
	return root
}

func appendCommit(readVersion int64, name string, blind bool) *Commit {
	return &Commit{Adds: []Add{{Path: EncodePath(name), Size: 1, DataChange: true, Stats: `{"numRecords":1}`}},
		Operation: "WRITE", ReadVersion: readVersion, BlindAppend: blind}
}

func TestCommitCreateAndAppend(t *testing.T) {
	root := newTestTable(t)
	c := &Commit{Metadata: &Metadata{ID: "x", SchemaString: `{"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}}]}`}, ReadVersion: -1}
	if _, err := c.Write(root, CommitOptions{}); !errors.Is(err, ErrTableExists) {
		t.Fatalf("second create: %v", err)
	}
	if v, err := appendCommit(0, "a b.parquet", true).Write(root, CommitOptions{}); err != nil || v != 1 {
		t.Fatalf("append: version %d, %v", v, err)
	}
	// Prepared at version 0, committed after version 1: version 2.
	if v, err := appendCommit(0, "c.parquet", true).Write(root, CommitOptions{}); err != nil || v != 2 {
		t.Fatalf("append after another: version %d, %v", v, err)
	}
	s, err := Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 2 || len(s.Files) != 2 || s.Files[0].Path != filepath.Join(root, "a b.parquet") || s.Files[0].URI != "a%20b.parquet" {
		t.Fatalf("snapshot %d %+v", s.Version, s.Files[0])
	}
	if s.Protocol.MinReaderVersion != 1 || s.Protocol.MinWriterVersion != 2 || s.Protocol.ReaderFeatures != nil {
		t.Fatalf("protocol %+v", s.Protocol)
	}
	if err := s.CheckAppendable(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, LogDir, "00000000000000000001.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"commitInfo":{`) || !strings.Contains(string(data), `"engineInfo":"carquet"`) || !strings.Contains(string(data), `"partitionValues":{}`) {
		t.Fatalf("commit 1:\n%s", data)
	}
}

func TestCommitConflicts(t *testing.T) {
	root := newTestTable(t)
	// A remove at version 1 conflicts with a commit that read version 0,
	// not with a blind append.
	rm := `{"remove":{"path":"old.parquet","deletionTimestamp":1,"dataChange":true}}` + "\n"
	if err := os.WriteFile(filepath.Join(root, LogDir, "00000000000000000001.json"), []byte(rm), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := appendCommit(0, "a.parquet", false).Write(root, CommitOptions{}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "version 1 removed files") {
		t.Fatalf("read-then-write after a remove: %v", err)
	}
	if v, err := appendCommit(0, "a.parquet", true).Write(root, CommitOptions{}); err != nil || v != 2 {
		t.Fatalf("blind append after a remove: %d %v", v, err)
	}
	// A metadata change conflicts with every append that read before it.
	md := `{"metaData":{"id":"y","format":{"provider":"parquet"},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{}}}` + "\n"
	if err := os.WriteFile(filepath.Join(root, LogDir, "00000000000000000003.json"), []byte(md), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := appendCommit(2, "b.parquet", true).Write(root, CommitOptions{}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "version 3 changed the table's metadata") {
		t.Fatalf("append across a metadata change: %v", err)
	}
	if v, err := appendCommit(3, "b.parquet", true).Write(root, CommitOptions{}); err != nil || v != 4 {
		t.Fatalf("append after it: %d %v", v, err)
	}
}

// Writers racing for versions: each commit lands once, at its own
// version, with no gaps.
func TestCommitRace(t *testing.T) {
	root := newTestTable(t)
	const writers, each = 8, 25
	var wg sync.WaitGroup
	versions := make(chan int64, writers*each)
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				v, err := appendCommit(0, NewTableID()+".parquet", true).Write(root, CommitOptions{})
				if err != nil {
					errs <- err
					return
				}
				versions <- v
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(versions)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for v := range versions {
		if seen[v] {
			t.Fatalf("version %d twice", v)
		}
		seen[v] = true
	}
	for v := int64(1); v <= writers*each; v++ {
		if !seen[v] {
			t.Fatalf("version %d missing", v)
		}
	}
	s, err := Open(root, -1)
	if err != nil || len(s.Files) != writers*each {
		t.Fatalf("%v, %d files", err, len(s.Files))
	}
}

// With one attempt, a writer that loses the race gives up with an error
// naming the table.
func TestCommitGivesUp(t *testing.T) {
	root := newTestTable(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	gaveUp := 0
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				_, err := appendCommit(0, NewTableID()+".parquet", true).Write(root, CommitOptions{MaxAttempts: 1})
				if err != nil {
					if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), root) || !strings.Contains(err.Error(), "gave up after 1 attempts") {
						t.Error(err)
					}
					mu.Lock()
					gaveUp++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d of 160 commits gave up", gaveUp)
	if _, err := Open(root, -1); err != nil {
		t.Fatal(err)
	}
}

func TestCheckAppendable(t *testing.T) {
	base := func() *Snapshot {
		return &Snapshot{Root: "r", Version: 5, Protocol: Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, ColumnMapping: "none",
			Schema: &Type{Name: "struct", Fields: []*Field{{Name: "a", Type: &Type{Name: "long"}}}}}
	}
	for _, c := range []struct {
		edit func(s *Snapshot)
		want string
	}{
		{func(s *Snapshot) { s.Protocol.MinWriterVersion = 8 }, "writer version 8"},
		{func(s *Snapshot) { s.Protocol = Protocol{3, 7, nil, []string{"rowTracking"}} }, `"rowTracking"`},
		{func(s *Snapshot) {
			s.Schema.Fields[0].Type = &Type{Name: "struct", Fields: []*Field{{Name: "x", Type: &Type{Name: "long"}}}}
			s.Metadata.PartitionColumns = []string{"a"}
		}, "primitive types"},
		{func(s *Snapshot) { s.Metadata.Configuration = map[string]string{"delta.constraints.c": "a > 0"} }, "CHECK constraint"},
		{func(s *Snapshot) { s.ColumnMapping = "name" }, `column "a" has no physical name`},
		{func(s *Snapshot) { s.Schema.Fields[0].Metadata = map[string]any{"delta.generationExpression": "1"} }, `column "a"`},
	} {
		s := base()
		c.edit(s)
		if err := s.CheckAppendable(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "(version 5)") {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
	s := base()
	s.Protocol = Protocol{3, 7, []string{"deletionVectors"}, []string{"deletionVectors", "appendOnly"}}
	s.Metadata.PartitionColumns = []string{"a"}
	if err := s.CheckAppendable(); err != nil {
		t.Fatal(err)
	}
}
