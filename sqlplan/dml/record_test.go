package dml

import (
	"os"
	"path/filepath"
	"testing"
)

// A record reads back as written; one cut short or changed by a byte
// counts as none (it was never renamed into place).
func TestRecordRoundTrip(t *testing.T) {
	rec := Record{
		{Kind: OpRename, Src: "/r/.carquet_tx/tx-1/1.parquet", Dst: "/r/t.parquet"},
		{Kind: OpDrop, Src: "/r/old \"name\".parquet", Dst: "/r/.carquet_tx/tx-1/2.dropped"},
		{Kind: OpExchange, Src: "/r/.carquet_tx/tx-1/3.d", Dst: "/r/f"},
		{Kind: OpDeltaCommit, Src: "/r/d", Dst: "tx-1-7-9@4"},
	}
	b := rec.marshal()
	got, ok := ParseRecord(b)
	if !ok || len(got) != len(rec) {
		t.Fatalf("ParseRecord = %v, %v", got, ok)
	}
	for i := range rec {
		if got[i] != rec[i] {
			t.Errorf("step %d: %+v, want %+v", i, got[i], rec[i])
		}
	}
	for _, bad := range [][]byte{b[:len(b)-3], append([]byte("x"), b[1:]...), nil} {
		if _, ok := ParseRecord(bad); ok {
			t.Errorf("ParseRecord(%q) accepted", bad)
		}
	}
	flipped := append([]byte(nil), b...)
	flipped[len(recordHead)+5] ^= 1
	if _, ok := ParseRecord(flipped); ok {
		t.Error("a record with a changed byte was accepted")
	}
}

// Recover applies the record a dead transaction left in its staging
// folder — a rename made again after a crash before it is a no-op — and
// removes the folder; a staging folder without a record goes, its staged
// file never published.
func TestRecoverAppliesRecord(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, StageDirName)
	committed, dead := filepath.Join(parent, "tx-1"), filepath.Join(parent, "tx-2")
	for _, d := range []string{committed, dead} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	table := filepath.Join(root, "t.parquet")
	write(table, "old")
	write(filepath.Join(committed, "1.parquet"), "new")
	write(filepath.Join(dead, "1.parquet"), "never")
	rec := Record{{Kind: OpRename, Src: filepath.Join(committed, "1.parquet"), Dst: table}}
	if err := rec.Write(committed); err != nil {
		t.Fatal(err)
	}
	var forgot []string
	if err := Recover(parent, func(p string) { forgot = append(forgot, p) }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(table); string(b) != "new" {
		t.Errorf("the table holds %q after recovery, want the committed file", b)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("staging folders left: %v", ents)
	}
	if len(forgot) != 2 || forgot[1] != table {
		t.Errorf("forget called with %v", forgot)
	}
	// Applying the record again (a crash after its renames) changes
	// nothing.
	if err := rec.Apply(); err != nil {
		t.Fatalf("a second Apply: %v", err)
	}
}
