package objstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Dir is a Store over a local folder: keys are slash-separated paths
// below it. Objects are written under a temporary name and renamed (or,
// for a conditional create, hard-linked) into place, so that they appear
// whole. Its ETag is the size and modification time.
type Dir string

func (d Dir) path(key string) (string, error) {
	clean := filepath.FromSlash(key)
	if !filepath.IsLocal(clean) {
		return "", fmt.Errorf("%q: %w", key, fs.ErrInvalid)
	}
	return filepath.Join(string(d), clean), nil
}

func (d Dir) entry(key string, st fs.FileInfo) Entry {
	h := sha256.Sum256([]byte(strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10)))
	return Entry{Key: key, Size: st.Size(), ETag: hex.EncodeToString(h[:8]), ModTime: st.ModTime()}
}

// Stat describes the file at key.
func (d Dir) Stat(_ context.Context, key string) (Entry, error) {
	p, err := d.path(key)
	if err != nil {
		return Entry{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return Entry{}, err
	}
	if st.IsDir() {
		return Entry{}, fmt.Errorf("%s: %w", key, fs.ErrNotExist)
	}
	return d.entry(key, st), nil
}

// List walks the folder for files whose keys start with prefix.
func (d Dir) List(_ context.Context, prefix string) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(string(d), func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(string(d), p)
		key := filepath.ToSlash(rel)
		if de.IsDir() {
			if key != "." && !strings.HasPrefix(key+"/", prefix) && !strings.HasPrefix(prefix, key+"/") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasPrefix(key, prefix) || strings.Contains(de.Name(), ".upload-") {
			return nil
		}
		st, err := de.Info()
		if err != nil {
			return nil
		}
		out = append(out, d.entry(key, st))
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, err
}

// ReadRange opens the file at key and returns n bytes from off.
func (d Dir) ReadRange(ctx context.Context, key string, off, n int64, etag string) (io.ReadCloser, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if etag != "" {
		st, err := f.Stat()
		if err != nil || d.entry(key, st).ETag != etag {
			f.Close()
			return nil, fmt.Errorf("%s: %w", key, ErrChanged)
		}
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(f, off, n), f}, nil
}

// Create writes key through a temporary file in its folder.
func (d Dir) Create(_ context.Context, key string, ifAbsent bool) (Upload, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), filepath.Base(p)+".upload-*")
	if err != nil {
		return nil, err
	}
	return &dirUpload{f: f, path: p, ifAbsent: ifAbsent}, nil
}

type dirUpload struct {
	f        *os.File
	path     string
	ifAbsent bool
}

func (u *dirUpload) Write(p []byte) (int, error) { return u.f.Write(p) }

func (u *dirUpload) Commit() error {
	tmp := u.f.Name()
	defer os.Remove(tmp)
	if err := u.f.Sync(); err != nil {
		u.f.Close()
		return err
	}
	if err := u.f.Close(); err != nil {
		return err
	}
	if u.ifAbsent {
		return os.Link(tmp, u.path) // fails with fs.ErrExist when taken
	}
	return os.Rename(tmp, u.path)
}

func (u *dirUpload) Abort() error {
	u.f.Close()
	return os.Remove(u.f.Name())
}

// Delete removes the file at key.
func (d Dir) Delete(_ context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
