// Package testfiles locates the conformance files for tests: the pinned
// copy in testdata/parquet-testing of the repository, or, where the
// repository lacks it, ../shared/parquet-testing beside the repository.
package testfiles

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Root returns the repository root: the nearest directory above the
// working directory that holds the library's go.mod.
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

// conformanceRoot is the folder of the conformance files: the pinned
// copy in the repository, else the shared one beside it.
func conformanceRoot(t testing.TB) string {
	t.Helper()
	root := Root(t)
	pinned := filepath.Join(root, "testdata", "parquet-testing")
	if _, err := os.Stat(pinned); err == nil {
		return pinned
	}
	return filepath.Join(root, "..", "shared", "parquet-testing")
}

// Dir returns the conformance folder <sub> (e.g. "data"). The files are
// part of the test environment, so their absence fails the test rather
// than skipping it.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	d := filepath.Join(conformanceRoot(t), sub)
	if _, err := os.Stat(d); err != nil {
		t.Fatalf("conformance files missing: %v", err)
	}
	return d
}

// Path returns the path of one conformance file, e.g. Path(t, "data/alltypes_plain.parquet").
func Path(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(conformanceRoot(t), rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("conformance file missing: %v", err)
	}
	return p
}

// Glob lists the files under the conformance folder <sub> (recursively)
// whose names end with one of the suffixes, sorted.
func Glob(t testing.TB, sub string, suffixes ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(Dir(t, sub), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, s := range suffixes {
			if strings.HasSuffix(p, s) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
