package delta

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
)

// storage reads a table's log where the table lives: local folders, or
// an object store when the table's root is a URL (see package objstore;
// Options.Store configures it).
type storage struct {
	store map[string]string
}

func isURL(p string) bool { return objstore.IsURL(p) }

// join appends a name (slash-separated) to a folder or URL.
func join(dir string, name string) string {
	if isURL(dir) {
		return objstore.Join(dir, name)
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// fileNames lists the names of the files directly in dir (sorted); an
// error that is fs.ErrNotExist when there is no such folder.
func (s storage) fileNames(dir string) ([]string, error) {
	if !isURL(dir) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, e := range ents {
			if !e.IsDir() {
				out = append(out, e.Name())
			}
		}
		return out, nil
	}
	ctx := context.Background()
	st, loc, err := objstore.Resolve(ctx, dir, s.store)
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSuffix(loc.Key, "/") + "/"
	ents, err := st.List(ctx, prefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if rel := e.Key[len(prefix):]; rel != "" && !strings.Contains(rel, "/") {
			out = append(out, rel)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, os.ErrNotExist)
	}
	sort.Strings(out)
	return out, nil
}

// readFile reads a whole (log) file.
func (s storage) readFile(p string) ([]byte, error) {
	if !isURL(p) {
		return os.ReadFile(p)
	}
	obj, err := objstore.OpenURL(context.Background(), p, s.store)
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	buf := make([]byte, obj.Size())
	if len(buf) == 0 {
		return buf, nil
	}
	if _, err := obj.ReadAt(buf, 0); err != nil {
		return nil, err
	}
	return buf, nil
}

// openParquet opens a checkpoint or sidecar.
func (s storage) openParquet(p string) (*file.File, error) {
	if !isURL(p) {
		return file.OpenFile(p, file.Options{}, false)
	}
	obj, err := objstore.OpenURL(context.Background(), p, s.store)
	if err != nil {
		return nil, err
	}
	return file.OpenOwned(obj, obj, obj.Size(), file.Options{Name: p})
}
