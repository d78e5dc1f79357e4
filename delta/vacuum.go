package delta

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta/dv"
)

// VACUUM deletes the files in a table's folder that no version within the
// retention period needs: a file is kept when the latest version's add
// actions name it (as a data file or as the file of its deletion vector),
// or a remove tombstone newer than the retention does; any other file is
// deleted once its modification time is older than the retention (files
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
}

// Retention is the table's delta.deletedFileRetentionDuration (a week by
// default).
func (s *Snapshot) Retention() time.Duration { return tombstoneRetention(s.Metadata.Configuration) }

// Vacuum deletes the files of the local table at root that its latest
// version no longer needs (see VacuumOptions) and returns their paths,
// relative to root (slash-separated, sorted).
func Vacuum(root string, opts VacuumOptions) ([]string, error) {
	if isURL(root) {
		return nil, fmt.Errorf("delta: %s: VACUUM of a table in an object store is not supported", root)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("delta: %s: %w", root, err)
	}
	snap, err := Open(abs, -1)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("delta: %s (version %d): VACUUM: %s", root, snap.Version, fmt.Sprintf(format, args...))
	}
	// The writer protocol is checked for every table (as the
	// vacuumProtocolCheck feature asks): a writer feature unknown here
	// may keep files this VACUUM would not know to keep.
	if p := snap.Protocol; p.MinWriterVersion > 7 {
		return nil, fail("the table needs writer version %d; versions up to 7 are supported", p.MinWriterVersion)
	} else if p.MinWriterVersion == 7 {
		for _, f := range p.WriterFeatures {
			if !appendWriterFeatures[f] {
				return nil, fail("the table has the writer feature %q, which is not supported", f)
			}
		}
	}
	retain := snap.Retention()
	if opts.Retain >= 0 {
		if opts.Retain < retain && !opts.Force {
			return nil, fail("a retention of %v is shorter than the table's %v (delta.deletedFileRetentionDuration): files that concurrent writers and readers of older versions need may be deleted; force it to proceed", opts.Retain, retain)
		}
		retain = opts.Retain
	}
	horizon := time.Now().Add(-retain)
	// Paths are compared with the root's symbolic links resolved: a
	// file: URI may name a live file through another path.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fail("%v", err)
	}
	keep := map[string]bool{}
	mark := func(p string) {
		p = filepath.Clean(p)
		if rel, ok := strings.CutPrefix(p, abs+string(filepath.Separator)); ok {
			keep[filepath.Join(real, rel)] = true
		} else if r, err := filepath.EvalSymlinks(p); err == nil {
			keep[r] = true
		}
		keep[p] = true
	}
	keepDV := func(d *dv.Descriptor) error {
		if d == nil || d.StorageType == dv.StorageInline {
			return nil
		}
		p, err := d.AbsolutePath(abs)
		if err != nil {
			return err
		}
		mark(p)
		return nil
	}
	for _, f := range snap.Files {
		mark(f.Path)
		if err := keepDV(f.DeletionVector); err != nil {
			return nil, fail("deletion vector of %s: %v", f.URI, err)
		}
	}
	r := &replay{root: abs}
	for _, t := range snap.tombstones {
		if t.DeletionTimestamp != nil && *t.DeletionTimestamp < horizon.UnixMilli() {
			continue // expired
		}
		p, err := r.resolve(t.Path)
		if err != nil {
			return nil, fail("%v", err)
		}
		mark(p)
		if err := keepDV(t.DeletionVector); err != nil {
			return nil, fail("deletion vector of %s: %v", t.Path, err)
		}
	}
	var gone []string
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == real {
			return nil
		}
		name := d.Name()
		if hidden := strings.HasPrefix(name, "_") || strings.HasPrefix(name, "."); d.IsDir() {
			if name == LogDir || hidden && !strings.Contains(name, "=") {
				return filepath.SkipDir
			}
			return nil
		} else if hidden || !d.Type().IsRegular() || keep[filepath.Clean(p)] {
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
