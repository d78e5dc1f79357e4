package delta

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta/dv"
)

// snapState is what a snapshot says, for comparisons.
func snapState(t *testing.T, root string, version int64) string {
	t.Helper()
	s, err := Open(root, version)
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Sprintf("v%d %+v %s %v %s\n", s.Version, s.Protocol, s.Metadata.SchemaString, s.Metadata.Configuration, s.Metadata.ID)
	for _, f := range s.Files {
		id := ""
		if f.DeletionVector != nil {
			id = f.DeletionVector.UniqueID() + fmt.Sprint(f.DeletionVector.Cardinality, f.DeletionVector.SizeInBytes)
		}
		out += fmt.Sprintf("%s %d %d %q %s\n", f.URI, f.Size, f.ModificationTime, f.StatsJSON, id)
	}
	for _, r := range s.tombstones {
		out += fmt.Sprintf("- %s %v\n", r.Path, r.DeletionVector != nil)
	}
	return out
}

func TestCheckpointEveryInterval(t *testing.T) {
	root := t.TempDir()
	if err := CreateLog(root); err != nil {
		t.Fatal(err)
	}
	typ := &Type{Name: "struct", Fields: []*Field{{Name: "id", Type: &Type{Name: "long"}, Nullable: true}}}
	ss, _ := typ.SchemaString()
	c := &Commit{Protocol: NewProtocol(typ, nil), Metadata: &Metadata{ID: NewTableID(), SchemaString: ss,
		Configuration: map[string]string{"delta.checkpointInterval": "5"}}, Operation: "CREATE TABLE", ReadVersion: -1}
	if _, err := c.Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	for v := int64(1); v <= 12; v++ {
		c := &Commit{ReadVersion: v - 1, Operation: "WRITE", CheckpointInterval: 5}
		add := Add{Path: fmt.Sprintf("part-%d.parquet", v), Size: v * 100, ModificationTime: 1000 + v, DataChange: true,
			Stats: fmt.Sprintf(`{"numRecords":%d}`, v)}
		c.Adds = []Add{add}
		if v == 7 || v == 11 {
			// A file gains a deletion vector: remove + add.
			s, err := Open(root, v-1)
			if err != nil {
				t.Fatal(err)
			}
			f := s.Files[0]
			d, err := dv.Inline(dv.Of(0, uint64(v)))
			if err != nil {
				t.Fatal(err)
			}
			c.Removes = []Remove{RemoveOf(f)}
			c.Adds = append(c.Adds, Add{Path: f.URI, Size: f.Size, ModificationTime: 5, DataChange: true, Stats: `{"numRecords":3,"tightBounds":false}`, DeletionVector: &d})
			if v == 7 {
				c.Protocol = WithDeletionVectors(s.Protocol)
			}
		}
		got, err := c.Write(root, CommitOptions{})
		if err != nil || got != v {
			t.Fatalf("version %d: %v", got, err)
		}
	}
	log := filepath.Join(root, LogDir)
	for _, v := range []int64{5, 10} {
		if _, err := os.Stat(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.parquet", v))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.parquet", 12))); err == nil {
		t.Fatal("a checkpoint at version 12")
	}
	data, err := os.ReadFile(filepath.Join(log, "_last_checkpoint"))
	if err != nil {
		t.Fatal(err)
	}
	var last struct{ Version, Size int64 }
	if err := json.Unmarshal(data, &last); err != nil || last.Version != 10 {
		t.Fatalf("_last_checkpoint %s: %v", data, err)
	}
	// Every version reads the same with the checkpoints and without them.
	with := map[int64]string{}
	for v := int64(0); v <= 12; v++ {
		with[v] = snapState(t, root, v)
	}
	// The checkpoint of version 10 alone (its commits moved away) gives
	// versions 10 to 12.
	hidden := t.TempDir()
	for v := int64(0); v <= 10; v++ {
		name := fmt.Sprintf("%020d.json", v)
		if err := os.Rename(filepath.Join(log, name), filepath.Join(hidden, name)); err != nil {
			t.Fatal(err)
		}
	}
	for v := int64(10); v <= 12; v++ {
		if got := snapState(t, root, v); got != with[v] {
			t.Fatalf("version %d from the checkpoint:\n%s\nfrom the commits:\n%s", v, got, with[v])
		}
	}
	for v := int64(0); v <= 10; v++ {
		name := fmt.Sprintf("%020d.json", v)
		if err := os.Rename(filepath.Join(hidden, name), filepath.Join(log, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []int64{5, 10} {
		os.Remove(filepath.Join(log, fmt.Sprintf("%020d.checkpoint.parquet", v)))
	}
	for v := int64(0); v <= 12; v++ {
		if got := snapState(t, root, v); got != with[v] {
			t.Fatalf("version %d:\nwith checkpoints:\n%s\nwithout:\n%s", v, with[v], got)
		}
	}
	s, _ := Open(root, 12)
	if len(s.Files) != 12 || len(s.tombstones) != 2 || !s.Protocol.HasFeature("deletionVectors") {
		t.Fatalf("%d files, %d tombstones, %+v", len(s.Files), len(s.tombstones), s.Protocol)
	}
}

func TestWithDeletionVectors(t *testing.T) {
	for _, tc := range []struct {
		in   Protocol
		want string
	}{
		{Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, "{3 7 [deletionVectors] [appendOnly invariants deletionVectors]}"},
		{Protocol{MinReaderVersion: 2, MinWriterVersion: 5}, "{3 7 [columnMapping deletionVectors] [appendOnly invariants checkConstraints changeDataFeed generatedColumns columnMapping deletionVectors]}"},
		{Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"}, WriterFeatures: []string{"timestampNtz"}}, "{3 7 [timestampNtz deletionVectors] [timestampNtz deletionVectors]}"},
	} {
		if got := fmt.Sprint(*WithDeletionVectors(tc.in)); got != tc.want {
			t.Errorf("%+v: got %s want %s", tc.in, got, tc.want)
		}
	}
	if p := WithDeletionVectors(Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}, WriterFeatures: []string{"deletionVectors"}}); p != nil {
		t.Errorf("upgraded %+v", p)
	}
}

// A commit that upgrades the protocol to deletion vectors (a DELETE)
// makes a concurrent blind append, read before it, conflict; a DELETE
// conflicts with a concurrent remove of the file.
func TestDeletionVectorCommitConflicts(t *testing.T) {
	root := t.TempDir()
	CreateLog(root)
	typ := &Type{Name: "struct", Fields: []*Field{{Name: "id", Type: &Type{Name: "long"}, Nullable: true}}}
	ss, _ := typ.SchemaString()
	create := &Commit{Protocol: NewProtocol(typ, nil), Metadata: &Metadata{ID: NewTableID(), SchemaString: ss}, ReadVersion: -1,
		Adds: []Add{{Path: "a.parquet", Size: 1, Stats: `{"numRecords":3}`}}}
	if _, err := create.Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dv.Inline(dv.Of(1))
	del := func() *Commit {
		return &Commit{Protocol: WithDeletionVectors(s.Protocol), ReadVersion: 0, Operation: "DELETE", Removes: []Remove{RemoveOf(s.Files[0])},
			Adds: []Add{{Path: "a.parquet", Size: 1, DataChange: true, Stats: `{"numRecords":3,"tightBounds":false}`, DeletionVector: &d}}}
	}
	if v, err := del().Write(root, CommitOptions{}); err != nil || v != 1 {
		t.Fatalf("%d %v", v, err)
	}
	app := &Commit{ReadVersion: 0, BlindAppend: true, Adds: []Add{{Path: "b.parquet", Size: 1}}}
	if _, err := app.Write(root, CommitOptions{}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "protocol") {
		t.Fatalf("append: %v", err)
	}
	if _, err := del().Write(root, CommitOptions{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("second delete: %v", err)
	}
	if s, _ := Open(root, -1); s.Version != 1 || len(s.Files) != 1 || s.Files[0].DeletionVector == nil {
		t.Fatalf("%+v", s)
	}
}

func TestCheckDeletable(t *testing.T) {
	typ := &Type{Name: "struct", Fields: []*Field{{Name: "id", Type: &Type{Name: "long"}, Nullable: true}}}
	for conf, want := range map[string]string{
		"":                           "",
		"delta.appendOnly":           "append-only",
		"delta.enableChangeDataFeed": "change data feed",
		"delta.enableRowTracking":    "row ids",
	} {
		s := &Snapshot{Root: "/t", Version: 4, Protocol: Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, Schema: typ, ColumnMapping: "none",
			Metadata: Metadata{Configuration: map[string]string{conf: "true"}}}
		err := s.CheckDeletable()
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "/t (version 4)")) {
			t.Errorf("%s: got %v", conf, err)
		}
	}
}
