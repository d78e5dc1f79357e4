package delta

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/objstore"
)

// VACUUM deletes the files in a table's folder (or, for a table in an
// object store, the objects under its root) that no version within the
// retention period needs: a file is kept when the latest version's add
// actions name it (as a data file or as the file of its deletion vector),
// or a remove tombstone newer than the retention does; any other file is
// deleted once its modification time (an object's last-modified time) is
// older than the retention (files
// removed long ago, and files never committed: the leftovers of failed
// writers). The retention is the table's delta.deletedFileRetentionDuration
// (a week by default); a shorter one must be forced, as Databricks asks
// spark.databricks.delta.retentionDurationCheck.enabled=false: a writer
// still writing a file it has not committed yet, or a reader of an older
// version, may lose its files. _delta_log, and every other file or folder
// whose name starts with "_" or "." (but partition folders, name=value),
// is never touched. Versions older than the retention may no longer read
// afterwards. No commit records the VACUUM (Databricks writes VACUUM
// START and VACUUM END commits; they change nothing in the table).

// VacuumOptions tune Vacuum.
type VacuumOptions struct {
	// Retain is the retention period; < 0 takes the table's
	// delta.deletedFileRetentionDuration.
	Retain time.Duration
	// Force allows a Retain shorter than the table's retention.
	Force bool
	// DryRun lists the files without deleting them.
	DryRun bool
	// Store holds the object store options of a table whose root is a URL.
	Store map[string]string
}

// Retention is the table's delta.deletedFileRetentionDuration (a week by
// default).
func (s *Snapshot) Retention() time.Duration { return tombstoneRetention(s.Metadata.Configuration) }

// Vacuum deletes the files of the table at root (a local folder, or an
// object store URL with opts.Store's options) that its latest version no
// longer needs (see VacuumOptions) and returns their paths, relative to
// root (slash-separated, sorted).
func Vacuum(root string, opts VacuumOptions) ([]string, error) {
	if isURL(root) {
		return vacuumStore(root, opts)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("delta: %s: %w", root, err)
	}
	snap, needed, horizon, err := planVacuum(abs, opts)
	if err != nil {
		return nil, err
	}
	fail := snap.vacuumError
	// Paths are compared with the root's symbolic links resolved: a
	// file: URI may name a live file through another path.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fail("%v", err)
	}
	keep := map[string]bool{}
	for _, p := range needed {
		p = filepath.Clean(p)
		if rel, ok := strings.CutPrefix(p, abs+string(filepath.Separator)); ok {
			keep[filepath.Join(real, rel)] = true
		} else if r, err := filepath.EvalSymlinks(p); err == nil {
			keep[r] = true
		}
		keep[p] = true
	}
	var gone []string
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == real {
			return nil
		}
		if d.IsDir() {
			if skipFolder(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		} else if hiddenName(d.Name()) || !d.Type().IsRegular() || keep[filepath.Clean(p)] {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if info.ModTime().After(horizon) {
			return nil // maybe a file a writer has not committed yet
		}
		if !opts.DryRun {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		rel, _ := filepath.Rel(real, p)
		gone = append(gone, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(gone)
	if err != nil {
		return gone, fail("%v", err)
	}
	return gone, nil
}

// hiddenName reports whether a file's name hides it from VACUUM: it
// starts with "_" or ".".
func hiddenName(name string) bool {
	return strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")
}

// skipFolder reports whether VACUUM leaves a folder alone: the log, and
// hidden folders other than partition folders (name=value).
func skipFolder(name string) bool {
	return name == LogDir || hiddenName(name) && !strings.Contains(name, "=")
}

func (s *Snapshot) vacuumError(format string, args ...any) error {
	return fmt.Errorf("delta: %s (version %d): VACUUM: %s", s.Root, s.Version, fmt.Sprintf(format, args...))
}

// planVacuum reads the latest version of the table at root, checks that
// VACUUM may run on it with the options and returns the paths (as the
// snapshot resolves them: local paths or URLs) of the files it keeps
// whatever their age, those of the latest version and of the tombstones
// within the retention, and the horizon before which other files go.
func planVacuum(root string, opts VacuumOptions) (*Snapshot, []string, time.Time, error) {
	s, err := OpenWith(root, -1, opts.Store)
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	keep, horizon, err := s.vacuumPlan(opts)
	return s, keep, horizon, err
}

func (s *Snapshot) vacuumPlan(opts VacuumOptions) ([]string, time.Time, error) {
	fail := s.vacuumError
	// The writer protocol is checked for every table (as the
	// vacuumProtocolCheck feature asks): a writer feature unknown here
	// may keep files this VACUUM would not know to keep.
	if p := s.Protocol; p.MinWriterVersion > 7 {
		return nil, time.Time{}, fail("the table needs writer version %d; versions up to 7 are supported", p.MinWriterVersion)
	} else if p.MinWriterVersion == 7 {
		for _, f := range p.WriterFeatures {
			if !appendWriterFeatures[f] {
				return nil, time.Time{}, fail("the table has the writer feature %q, which is not supported", f)
			}
		}
	}
	retain := s.Retention()
	if opts.Retain >= 0 {
		if opts.Retain < retain && !opts.Force {
			return nil, time.Time{}, fail("a retention of %v is shorter than the table's %v (delta.deletedFileRetentionDuration): files that concurrent writers and readers of older versions need may be deleted; force it to proceed", opts.Retain, retain)
		}
		retain = opts.Retain
	}
	horizon := time.Now().Add(-retain)
	var keep []string
	keepDV := func(d *dv.Descriptor) error {
		if d == nil || d.StorageType == dv.StorageInline {
			return nil
		}
		p, err := d.AbsolutePath(s.Root)
		if err != nil {
			return err
		}
		keep = append(keep, p)
		return nil
	}
	for _, f := range s.Files {
		keep = append(keep, f.Path)
		if err := keepDV(f.DeletionVector); err != nil {
			return nil, time.Time{}, fail("deletion vector of %s: %v", f.URI, err)
		}
	}
	r := &replay{root: s.Root}
	for _, t := range s.tombstones {
		if t.DeletionTimestamp != nil && *t.DeletionTimestamp < horizon.UnixMilli() {
			continue // expired
		}
		p, err := r.resolve(t.Path)
		if err != nil {
			return nil, time.Time{}, fail("%v", err)
		}
		keep = append(keep, p)
		if err := keepDV(t.DeletionVector); err != nil {
			return nil, time.Time{}, fail("deletion vector of %s: %v", t.Path, err)
		}
	}
	return keep, horizon, nil
}

// vacuumStore is Vacuum of a table in an object store: the objects
// listed under the root, their last-modified times as their ages.
func vacuumStore(root string, opts VacuumOptions) ([]string, error) {
	root = strings.TrimSuffix(root, "/")
	snap, needed, horizon, err := planVacuum(root, opts)
	if err != nil {
		return nil, err
	}
	fail := snap.vacuumError
	ctx := context.Background()
	st, loc, err := objstore.Resolve(ctx, root, opts.Store)
	if err != nil {
		return nil, fail("%v", err)
	}
	prefix := strings.TrimSuffix(loc.Key, "/") + "/"
	// The kept files by key: those in the same bucket (a URL elsewhere
	// names no object listed here).
	keep := map[string]bool{}
	for _, p := range needed {
		if l, err := objstore.Parse(p); err == nil && l.Scheme == loc.Scheme && l.Bucket == loc.Bucket {
			keep[l.Key] = true
		}
	}
	ents, err := st.List(ctx, prefix)
	if err != nil {
		return nil, fail("listing %s: %v", root, err)
	}
	var gone []string
	for _, e := range ents {
		rel := strings.TrimPrefix(e.Key, prefix)
		segs := strings.Split(rel, "/")
		if rel == "" || hiddenName(segs[len(segs)-1]) || keep[e.Key] || e.ModTime.After(horizon) {
			continue
		}
		if slices.ContainsFunc(segs[:len(segs)-1], skipFolder) {
			continue
		}
		if !opts.DryRun {
			if err := st.Delete(ctx, e.Key); err != nil {
				sort.Strings(gone)
				return gone, fail("deleting %s: %v", rel, err)
			}
		}
		gone = append(gone, rel)
	}
	sort.Strings(gone)
	return gone, nil
}
