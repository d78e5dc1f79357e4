// Package testdata locates the shared conformance files
// (../shared/parquet-testing beside the repository root) for the tests of
// the sqltests module.
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

// Dir returns ../shared/parquet-testing/<sub> relative to the repository
// root. The files are part of the test environment (CI has them), so their
// absence fails the test.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	d := filepath.Join(Root(t), "..", "shared", "parquet-testing", sub)
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("conformance files missing: %v", err)
	}
	return d
}
