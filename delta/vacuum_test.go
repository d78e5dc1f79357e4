package delta

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestVacuum(t *testing.T) {
	root := newTestTable(t)
	old := time.Now().Add(-10 * 24 * time.Hour)
	touch := func(name string, mt time.Time) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"a.parquet", "b.parquet", "c.parquet", "stray.parquet", "sub/old.bin", ".hidden", "_side/x.parquet"} {
		touch(n, old)
	}
	touch("new.parquet", time.Now().Add(-time.Second))
	c := &Commit{Adds: []Add{{Path: "a.parquet", DataChange: true}, {Path: "b.parquet", DataChange: true}}, Operation: "WRITE", ReadVersion: 0, BlindAppend: true}
	if _, err := c.Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	expired := old.UnixMilli()
	c = &Commit{Removes: []Remove{{Path: "a.parquet", DeletionTimestamp: expired, DataChange: true}, {Path: "b.parquet", DeletionTimestamp: time.Now().UnixMilli(), DataChange: true}},
		Adds: []Add{{Path: "c.parquet", DataChange: true}}, Operation: "DELETE", ReadVersion: 1}
	if _, err := c.Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	logBefore, _ := os.ReadDir(filepath.Join(root, LogDir))
	if dry, err := Vacuum(root, VacuumOptions{Retain: -1, DryRun: true}); err != nil || strings.Join(dry, " ") != "a.parquet stray.parquet sub/old.bin" {
		t.Fatalf("dry run: %q %v", dry, err)
	}
	if _, err := os.Stat(filepath.Join(root, "a.parquet")); err != nil {
		t.Fatal("the dry run deleted a file")
	}
	gone, err := Vacuum(root, VacuumOptions{Retain: -1})
	if err != nil || strings.Join(gone, " ") != "a.parquet stray.parquet sub/old.bin" {
		t.Fatalf("vacuum: %q %v", gone, err)
	}
	if _, err := Vacuum(root, VacuumOptions{Retain: 0}); err == nil || !strings.Contains(err.Error(), "shorter than the table's") || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("unforced short retention: %v", err)
	}
	gone, err = Vacuum(root, VacuumOptions{Retain: 0, Force: true})
	if err != nil || strings.Join(gone, " ") != "b.parquet new.parquet" {
		t.Fatalf("vacuum 0: %q %v", gone, err)
	}
	for _, n := range []string{"c.parquet", ".hidden", "_side/x.parquet"} {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(n))); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	logAfter, _ := os.ReadDir(filepath.Join(root, LogDir))
	if len(logAfter) != len(logBefore) {
		t.Fatalf("_delta_log changed: %d files, %d before", len(logAfter), len(logBefore))
	}
	if s, err := Open(root, -1); err != nil || len(s.Files) != 1 {
		t.Fatalf("after vacuum: %v", err)
	}
}

// A rewrite (remove with dataChange false) conflicts with a concurrent
// commit that removes one of its files, in either order, but not with
// appends.
func TestCommitRewriteConflicts(t *testing.T) {
	root := newTestTable(t)
	if _, err := appendCommit(0, "a.parquet", true).Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	optimize := func(rv int64) *Commit {
		return &Commit{Removes: []Remove{{Path: "a.parquet", DataChange: false}}, Adds: []Add{{Path: "big.parquet", DataChange: false}},
			Operation: "OPTIMIZE", ReadVersion: rv}
	}
	del := func(rv int64) *Commit {
		return &Commit{Removes: []Remove{{Path: "a.parquet", DataChange: true}}, Operation: "DELETE", ReadVersion: rv}
	}
	// Appends, blind or not, before the rewrite commits: no conflict.
	if _, err := appendCommit(1, "b.parquet", true).Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := appendCommit(1, "c.parquet", false).Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	if v, err := optimize(1).Write(root, CommitOptions{}); err != nil || v != 4 {
		t.Fatalf("optimize after appends: %d %v", v, err)
	}
	// A DELETE read at version 1 commits after the OPTIMIZE: conflict.
	if _, err := del(1).Write(root, CommitOptions{}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "rewrote a.parquet") {
		t.Fatalf("delete after optimize: %v", err)
	}
	// An append read before the OPTIMIZE commits after it.
	if _, err := appendCommit(3, "d.parquet", true).Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Files {
		names = append(names, f.URI)
	}
	if !slices.Equal(names, []string{"b.parquet", "c.parquet", "big.parquet", "d.parquet"}) {
		t.Fatalf("files %v", names)
	}
	// An OPTIMIZE read before a DELETE of its file commits after it.
	root = newTestTable(t)
	appendCommit(0, "a.parquet", true).Write(root, CommitOptions{})
	if _, err := del(1).Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := optimize(1).Write(root, CommitOptions{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("optimize after delete: %v", err)
	}
}

// A live file named by a file: URI through another path than the root's
// (a symbolic link) is kept.
func TestVacuumSymlinkedRoot(t *testing.T) {
	realDir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(realDir, link); err != nil {
		t.Skip(err)
	}
	root := filepath.Join(link, "t")
	if err := CreateLog(root); err != nil {
		t.Fatal(err)
	}
	c := &Commit{Protocol: &Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, Metadata: &Metadata{ID: NewTableID(), SchemaString: `{"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}}]}`},
		Adds:      []Add{{Path: "file://" + filepath.ToSlash(filepath.Join(realDir, "t", "abs.parquet")), DataChange: true}, {Path: "rel.parquet", DataChange: true}},
		Operation: "CREATE TABLE", ReadVersion: -1}
	if _, err := c.Write(root, CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{"abs.parquet", "rel.parquet", "stray.parquet"} {
		p := filepath.Join(realDir, "t", n)
		if err := os.WriteFile(p, []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	gone, err := Vacuum(root, VacuumOptions{Retain: 0, Force: true})
	if err != nil || !slices.Equal(gone, []string{"stray.parquet"}) {
		t.Fatalf("vacuum: %q %v", gone, err)
	}
}
