package writer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
)

const editChildEnv = "CARQUET_FOLDER_EDIT_CHILD"

// editVersion writes the files of version v of the folder test table:
// files files, each carrying v in its key-value metadata.
func editVersion(create func(name string) (*Writer, error), files, v int) error {
	for i := range files {
		w, err := create(fmt.Sprintf("p%d-v%d.parquet", i, v))
		if err != nil {
			return err
		}
		w.SetKeyValue("version", strconv.Itoa(v))
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

// TestFolderEditChild is the process TestFolderEditKilled kills: it
// replaces every file of the folder by the next version's, edit after
// edit, until it is killed.
func TestFolderEditChild(t *testing.T) {
	dir := os.Getenv(editChildEnv)
	if dir == "" {
		t.Skip("run by TestFolderEditKilled")
	}
	sch := appendSchema(t)
	fmt.Println("editing") // the parent times its kill from this line
	for v := 1; ; v++ {
		edit, err := EditFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := editVersion(func(name string) (*Writer, error) { return edit.Create(name, sch) }, 4, v); err != nil {
			t.Fatal(err)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			edit.Remove(e.Name())
		}
		if err := edit.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFolderEditKilled kills (SIGKILL) a process in the middle of folder
// edits: the folder then holds the files of one version, all of them, and
// the next edit removes what the killed one left beside the folder.
func TestFolderEditKilled(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "f")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sch := appendSchema(t)
	if err := editVersion(func(name string) (*Writer, error) { return Create(filepath.Join(dir, name), sch) }, 4, 0); err != nil {
		t.Fatal(err)
	}
	for round := range 4 {
		cmd, ready, exited := startMarkedChild(t, "TestFolderEditChild", editChildEnv+"="+dir, "editing")
		<-ready
		time.Sleep(time.Duration(20+rand.IntN(200)) * time.Millisecond)
		cmd.Process.Kill()
		<-exited
		v, err := folderVersion(dir)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		t.Logf("round %d: version %s", round, v)
	}
	edit, err := EditFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := edit.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := folderVersion(dir); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(parent)
	if len(ents) != 1 {
		t.Errorf("beside the folder after an edit: %d entries", len(ents))
	}
}

// folderVersion checks that the folder holds the 4 files of one version
// and no temporary file of a finished writer, and returns the version.
func folderVersion(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var version string
	n := 0
	for _, e := range ents {
		if !isTableFile(e.Name()) {
			continue
		}
		f, err := file.OpenFile(filepath.Join(dir, e.Name()), file.Options{}, false)
		if err != nil {
			return "", err
		}
		v, _ := f.KeyValue("version")
		f.Close()
		if n > 0 && v != version {
			return "", fmt.Errorf("files of versions %s and %s", version, v)
		}
		version = v
		n++
	}
	if n != 4 {
		return "", fmt.Errorf("%d files, want 4", n)
	}
	return version, nil
}
