// Package testdata locates the conformance files for the tests of the
// sqltests module: the pinned copy in the repository's
// testdata/parquet-testing, else ../shared/parquet-testing beside the
// repository.
package testdata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root returns the repository root: the nearest directory above the
// working directory holding the library's go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/carquet-go/carquet\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (go.mod of github.com/carquet-go/carquet) not found")
		}
		dir = parent
	}
}

// Dir returns the conformance folder <sub> (e.g. "data"): in the pinned
// copy of the repository, or where it lacks one in the shared folder
// beside it. The files are part of the test environment, so their absence
// fails the test.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	root := Root(t)
	base := filepath.Join(root, "testdata", "parquet-testing")
	if _, err := os.Stat(base); err != nil {
		base = filepath.Join(root, "..", "shared", "parquet-testing")
	}
	d := filepath.Join(base, sub)
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("conformance files missing: %v", err)
	}
	return d
}
