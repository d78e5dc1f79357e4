package scan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/carquet-go/carquet/writer"
)

// TestOpenDuringFolderEdits: tables opened while writer.FolderEdit
// replaces every file of a folder again and again each hold the files of
// one version of the folder, all of them: a listing made before a swap
// whose files are opened after it is made again, never read in part.
// Run it with -race.
func TestOpenDuringFolderEdits(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "f")
	sch, err := writer.NewSchema(writer.Int64("v").Required())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const files, edits = 12, 30
	write := func(create func(string) (*writer.Writer, error), name string, version int) error {
		w, err := create(name)
		if err != nil {
			return err
		}
		w.SetKeyValue("version", strconv.Itoa(version))
		return w.Close()
	}
	plain := func(name string) (*writer.Writer, error) { return writer.Create(filepath.Join(dir, name), sch) }
	for i := range files {
		if err := write(plain, fmt.Sprintf("p%02d-v0.parquet", i), 0); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() {
		for v := 1; v <= edits; v++ {
			edit, err := writer.EditFolder(dir)
			if err != nil {
				done <- err
				return
			}
			create := func(name string) (*writer.Writer, error) { return edit.Create(name, sch) }
			for i := range files {
				if err := write(create, fmt.Sprintf("p%02d-v%d.parquet", i, v), v); err != nil {
					edit.Abort()
					done <- err
					return
				}
				edit.Remove(fmt.Sprintf("p%02d-v%d.parquet", i, v-1))
			}
			if err := edit.Commit(); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	opened := 0
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d tables opened", opened)
			return
		default:
		}
		if err := checkOneVersion(dir, files); err != nil {
			t.Error(err)
			if err := <-done; err != nil { // the editor, before the folder goes
				t.Error(err)
			}
			return
		}
		opened++
	}
}

// checkOneVersion opens the folder table dir and checks that it holds
// files files, all of one version.
func checkOneVersion(dir string, files int) error {
	tbl, err := Open(dir, Options{})
	if err != nil {
		return err
	}
	defer tbl.Close()
	if len(tbl.Files) != files {
		return fmt.Errorf("%d files opened, want %d", len(tbl.Files), files)
	}
	var first string
	for i := range tbl.Files {
		f, err := tbl.File(i)
		if err != nil {
			return err
		}
		v, ok := f.KeyValue("version")
		if !ok {
			return errors.New("a file without its version")
		}
		if i == 0 {
			first = v
		} else if v != first {
			return fmt.Errorf("files of versions %s and %s in one table", first, v)
		}
	}
	return nil
}
