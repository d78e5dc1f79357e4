package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/carquet-go/carquet/objstore"
)

// ErrOutsideRoot is returned for a path that resolves outside a Root.
var ErrOutsideRoot = errors.New("outside the database folder")

// Root confines the paths a database may touch to one folder: a path is
// inside when it is, after cleaning and resolving every symbolic link it
// passes through, the folder itself or below it. Reads outside may be
// allowed (ExternalRead); writes and deletions never are.
//
// The check is on names, before any I/O: it is not a sandbox against a
// process that swaps links inside the folder while a statement runs.
type Root struct {
	dir  string // as given, absolute and clean (a URL for a remote root)
	real string // dir with its symbolic links resolved
	// remote is set when dir is an object store URL: paths inside are the
	// URLs below it.
	remote bool
	// ExternalRead allows reading files outside the folder.
	ExternalRead bool

	mu   sync.RWMutex
	also []string // other folders (real paths) that count as inside
}

// Allow makes folder dir count as inside too (a database's folder of
// temporary tables).
func (r *Root) Allow(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.also = append(r.also, real)
	return nil
}

// NewRoot returns the Root of folder dir.
func NewRoot(dir string, externalRead bool) (*Root, error) {
	if objstore.IsURL(dir) {
		u, _, _ := strings.Cut(objstore.Join(dir), "?")
		u = strings.TrimSuffix(u, "/")
		return &Root{dir: u, real: u, remote: true, ExternalRead: externalRead}, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &Root{dir: abs, real: real, ExternalRead: externalRead}, nil
}

// Join resolves a name a statement gives (relative to the folder, or
// absolute) to a path, refusing it when it lies outside the folder (for a
// read, unless ExternalRead). A glob is checked by the folders before its
// first wildcard; the files it matches are checked by Check as they are
// listed.
func (r *Root) Join(name string, write bool) (string, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return "", fmt.Errorf("path %q holds a NUL byte", name)
	}
	p := name
	switch {
	case objstore.IsURL(p):
		p = objstore.Join(p)
	case r.remote && !filepath.IsAbs(p):
		p = objstore.Join(r.dir, filepath.ToSlash(p))
	default:
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.dir, p)
		}
		p = filepath.Clean(p)
	}
	if err := r.check(p, write, name); err != nil {
		return "", err
	}
	return p, nil
}

// Check refuses a path (absolute or relative to the working directory)
// that resolves outside the folder: for a read unless ExternalRead.
func (r *Root) Check(path string, write bool) error {
	if r == nil {
		return nil
	}
	if strings.IndexByte(path, 0) >= 0 {
		return fmt.Errorf("path %q holds a NUL byte", path)
	}
	if objstore.IsURL(path) {
		return r.check(objstore.Join(path), write, path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	return r.check(abs, write, path)
}

func (r *Root) check(abs string, write bool, shown string) error {
	if !write && r.ExternalRead {
		return nil
	}
	if objstore.IsURL(abs) {
		// Object store keys have no links: a URL is inside when it is
		// the root's or below it.
		u, _, _ := strings.Cut(abs, "?")
		if r.remote && (u == r.dir || strings.HasPrefix(u, r.dir+"/")) {
			return nil
		}
		return r.outside(write, shown)
	}
	real, err := resolveExisting(literalPrefix(abs))
	if err != nil {
		return fmt.Errorf("path %q: %w", shown, err)
	}
	if !r.remote && within(real, r.real) {
		return nil
	}
	r.mu.RLock()
	for _, d := range r.also {
		if within(real, d) {
			r.mu.RUnlock()
			return nil
		}
	}
	r.mu.RUnlock()
	return r.outside(write, shown)
}

func (r *Root) outside(write bool, shown string) error {
	if write || r.ExternalRead {
		return fmt.Errorf("path %q is %w %s: writing there is refused", shown, ErrOutsideRoot, r.dir)
	}
	return fmt.Errorf("path %q is %w %s (reading there takes the DSN option external_access=read; writing there is refused)", shown, ErrOutsideRoot, r.dir)
}

// within reports whether p is dir or below it (both clean and absolute).
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// literalPrefix is a path's part before the first component holding a
// glob wildcard (the whole path when it has none).
func literalPrefix(p string) string {
	i := strings.IndexAny(p, "*?[")
	if i < 0 {
		return p
	}
	return filepath.Dir(p[:i+1])
}

// resolveExisting resolves the symbolic links of the longest part of p
// that exists and appends the rest as it is. A link that points nowhere
// is refused: what it names could be created outside the folder.
func resolveExisting(p string) (string, error) {
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			if rest == "" {
				return real, nil
			}
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if st, lerr := os.Lstat(p); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("%s is a symbolic link to nothing", p)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest), nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
