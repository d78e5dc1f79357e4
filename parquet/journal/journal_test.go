package journal

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestMarshalParse(t *testing.T) {
	for _, j := range []Journal{
		{OldSize: 100, TailLen: 100, TailCRC: 7},
		{OldSize: 100, Cut: 60, Saved: bytes.Repeat([]byte{9}, 40), TailLen: 60, TailCRC: 8},
		{OldSize: 100, Cut: 60, Saved: bytes.Repeat([]byte{9}, 40), TailLen: 60, TailCRC: 8, NewSize: 130, NewCRC: 77},
		{OldSize: 100, Cut: 100, TailLen: 100, TailCRC: 8, NewSize: 101, NewCRC: 1},
	} {
		got, err := Parse(j.Marshal())
		if err != nil {
			t.Fatal(err)
		}
		if got.OldSize != j.OldSize || got.cut() != j.cut() || !bytes.Equal(got.Saved, j.Saved) || got.TailLen != j.TailLen || got.TailCRC != j.TailCRC ||
			got.NewSize != j.NewSize || got.NewCRC != j.NewCRC {
			t.Errorf("round trip of %+v gave %+v", j, got)
		}
	}
	// The journal file keeps its room: a record is followed by padding, or
	// by the rest of an older, longer record.
	long := Journal{OldSize: 300, Cut: 100, Saved: bytes.Repeat([]byte{5}, 200), TailLen: 100, TailCRC: 3}.Marshal()
	for _, j := range []Journal{
		{OldSize: 100, TailLen: 100, TailCRC: 7},
		{OldSize: 100, Cut: 60, Saved: bytes.Repeat([]byte{9}, 40), TailLen: 60, TailCRC: 8},
	} {
		b := j.Marshal()
		for _, pad := range [][]byte{make([]byte, 4096), long[len(b):]} {
			got, err := Parse(append(bytes.Clone(b), pad...))
			if err != nil {
				t.Fatalf("%+v with %d bytes after it: %v", j, len(pad), err)
			}
			if got.OldSize != j.OldSize || got.cut() != j.cut() || !bytes.Equal(got.Saved, j.Saved) {
				t.Errorf("%+v with %d bytes after it gave %+v", j, len(pad), got)
			}
		}
	}
	for _, j := range []Journal{
		{OldSize: 100, Cut: 60, Saved: make([]byte, 40), TailLen: 60},
		{OldSize: 100, Cut: 60, Saved: make([]byte, 40), TailLen: 60, NewSize: 90, NewCRC: 5},
	} {
		b := j.Marshal()
		for i := range b {
			c := bytes.Clone(b)
			c[i] ^= 1
			if _, err := Parse(c); err == nil {
				t.Fatalf("%+v: a journal with byte %d flipped parses", j, i)
			}
		}
		if _, err := Parse(b[:len(b)-1]); err == nil {
			t.Fatal("a cut-short journal parses")
		}
	}
	// A new length not past the cut is refused, however well its CRC.
	if _, err := Parse(Journal{OldSize: 100, Cut: 60, Saved: make([]byte, 40), NewSize: 60}.Marshal()); err == nil {
		t.Fatal("a journal whose append writes nothing parses")
	}
}

// TestLanded: an append landed when the file has its new length and its
// bytes from the cut the recorded CRC.
func TestLanded(t *testing.T) {
	old := []byte("PAR1-rows-old footer-PAR1")
	cut := int64(bytes.Index(old, []byte("old footer")))
	tail := []byte("new rows-new footer-PAR1")
	now := append(bytes.Clone(old[:cut]), tail...)
	j := Journal{OldSize: int64(len(old)), Cut: cut, Saved: old[cut:], NewSize: int64(len(now)), NewCRC: Checksum(tail)}
	j, err := Parse(j.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file []byte
		want bool
	}{
		{now, true},
		{old, false},
		{now[:len(now)-1], false},
		{append(bytes.Clone(now), 0), false},
		{append(bytes.Clone(now[:len(now)-2]), 'X', '1'), false},
		{append(bytes.Clone(old[:cut]), make([]byte, len(tail))...), false},
	} {
		got, err := j.Landed(bytes.NewReader(tc.file), int64(len(tc.file)))
		if err != nil || got != tc.want {
			t.Errorf("file %q: landed %v %v, want %v", tc.file, got, err, tc.want)
		}
	}
	// Journals of appends that streamed never landed.
	j.NewSize = 0
	if got, _ := j.Landed(bytes.NewReader(now), int64(len(now))); got {
		t.Error("a journal without a new length landed")
	}
}

// TestViewAndRestore: while a journal that saved overwritten bytes exists,
// readers see the old file; Restore puts it back.
func TestViewAndRestore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	old := []byte("PAR1-the old row groups-the old footer-PAR1")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cut := int64(bytes.Index(old, []byte("-the old footer")))
	tlen, tcrc, err := TailCRC(f, cut)
	if err != nil {
		t.Fatal(err)
	}
	j := Journal{OldSize: int64(len(old)), Cut: cut, Saved: old[cut:], TailLen: tlen, TailCRC: tcrc}
	if err := os.WriteFile(path+Suffix, j.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	// The append overwrites from the cut, longer and shorter than before.
	for _, tail := range []string{"+a new row group and footer, longer than the old", "+short"} {
		if err := f.Truncate(cut); err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(tail), cut); err != nil {
			t.Fatal(err)
		}
		v, err := Committed(path, f)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Journaled || v.Size != int64(len(old)) {
			t.Fatalf("view %+v", v)
		}
		got := make([]byte, v.Size)
		if _, err := v.R.ReadAt(got, 0); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, old) {
			t.Fatalf("the view reads %q", got)
		}
		// Reads across the cut and past the end.
		part := make([]byte, 10)
		if n, err := v.R.ReadAt(part, cut-5); err != nil || n != 10 || string(part) != string(old[cut-5:cut+5]) {
			t.Fatalf("read across the cut: %q %d %v", part, n, err)
		}
		if n, err := v.R.ReadAt(part, v.Size-3); err != io.EOF || n != 3 {
			t.Fatalf("read past the end: %d %v", n, err)
		}
	}
	if err := j.Restore(f); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Fatalf("restored %q", got)
	}
	os.Remove(path + Suffix)
	v, err := Committed(path, f)
	if err != nil || v.Journaled || v.Size != int64(len(old)) {
		t.Fatalf("view without a journal: %+v %v", v, err)
	}
	if same, err := Unchanged(path, f, v); err != nil || !same {
		t.Fatalf("unchanged: %v %v", same, err)
	}
	if _, err := f.WriteAt([]byte("more"), v.Size); err != nil {
		t.Fatal(err)
	}
	if same, _ := Unchanged(path, f, v); same {
		t.Fatal("a longer file is unchanged")
	}
}

// TestReadersLock: a reader's shared lock keeps an append from taking it
// exclusive, within one process too; closing the reader frees it.
func TestReadersLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ok, err := TryExclusive(w)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skip("no open-file-description locks here")
	}
	ReleaseExclusive(w)
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ShareReaders(r); err != nil {
		t.Fatal(err)
	}
	if ok, _ := TryExclusive(w); ok {
		t.Fatal("exclusive while a reader holds the lock")
	}
	r.Close()
	if ok, _ := TryExclusive(w); !ok {
		t.Fatal("not exclusive after the reader closed")
	}
}

func FuzzParse(f *testing.F) {
	f.Add(Journal{OldSize: 100, TailLen: 100, TailCRC: 7}.Marshal())
	f.Add(Journal{OldSize: 100, Cut: 60, Saved: make([]byte, 40), TailLen: 60}.Marshal())
	f.Add(Journal{OldSize: 100, Cut: 60, Saved: make([]byte, 40), TailLen: 60, NewSize: 70, NewCRC: 3}.Marshal())
	f.Fuzz(func(t *testing.T, b []byte) {
		j, err := Parse(b)
		if err != nil {
			return
		}
		if j.cut() > j.OldSize || int64(j.TailLen) > j.cut() || j.NewSize != 0 && j.NewSize <= j.cut() {
			t.Fatalf("parsed an inconsistent journal %+v", j)
		}
		if _, err := Parse(j.Marshal()); err != nil {
			t.Fatalf("a parsed journal does not parse again: %v", err)
		}
	})
}
