package delta

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/objstore"
)

// Writing: a commit is one JSON file, _delta_log/<version>.json, created
// only if absent (a hard link from a synced temporary file on a local
// disk, a conditional PUT in an object store). Two writers racing for a
// version: one wins, the other reads what won, checks it for conflicts
// and tries the next version (optimistic concurrency, as the protocol
// describes it).

// Add is an add action of a commit.
type Add struct {
	// Path is relative to the table root (URL-encoded as the protocol
	// wants: see EncodePath).
	Path string `json:"path"`
	// PartitionValues are the file's serialized partition values by
	// (physical) partition column name, nil for null (see PartitionValue).
	PartitionValues  map[string]*string `json:"partitionValues"`
	Size             int64              `json:"size"`
	ModificationTime int64              `json:"modificationTime"`
	DataChange       bool               `json:"dataChange"`
	// Stats is the file's statistics as JSON (see FileStats).
	Stats string `json:"stats,omitempty"`
	// DeletionVector marks the file's deleted rows (nil: none).
	DeletionVector *dv.Descriptor `json:"deletionVector,omitempty"`
}

// Remove is a remove action of a commit: the logical file (path and
// deletion vector) it names leaves the table.
type Remove struct {
	Path                 string             `json:"path"`
	DeletionTimestamp    int64              `json:"deletionTimestamp"`
	DataChange           bool               `json:"dataChange"`
	ExtendedFileMetadata bool               `json:"extendedFileMetadata"`
	PartitionValues      map[string]*string `json:"partitionValues"`
	Size                 int64              `json:"size"`
	Stats                string             `json:"stats,omitempty"`
	DeletionVector       *dv.Descriptor     `json:"deletionVector,omitempty"`
}

// RemoveOf is the remove action of a live file (with its deletion
// vector), stamped with the time now.
func RemoveOf(a *AddFile) Remove {
	pv := a.PartitionValues
	if pv == nil {
		pv = map[string]*string{}
	}
	return Remove{Path: a.URI, DeletionTimestamp: time.Now().UnixMilli(), DataChange: true, ExtendedFileMetadata: true,
		PartitionValues: pv, Size: a.Size, Stats: a.StatsJSON, DeletionVector: a.DeletionVector}
}

// Commit is what one commit writes.
type Commit struct {
	// Protocol and Metadata are set by the commit that creates the table
	// (or one that changes them).
	Protocol *Protocol
	Metadata *Metadata
	// Removes are written before Adds (a file whose deletion vector
	// changes is removed and added again).
	Removes []Remove
	Adds    []Add
	// Operation names the commit in its commitInfo ("WRITE", "CREATE
	// TABLE", "CREATE TABLE AS SELECT", "DELETE", "UPDATE", "OPTIMIZE");
	// OperationParameters go with it.
	Operation           string
	OperationParameters map[string]string
	// ReadVersion is the version the commit was prepared from: -1 creates
	// the table (version 0). Commits after it are checked for conflicts.
	ReadVersion int64
	// BlindAppend marks a commit that adds files without having read the
	// table: only a protocol or metadata change conflicts with it. Other
	// commits conflict also with a commit that removed files.
	BlindAppend bool
	// CheckpointInterval: a commit whose version is a multiple of it is
	// followed by a checkpoint of that version (see WriteCheckpoint). 0
	// takes the table's delta.checkpointInterval from Metadata when the
	// commit sets it, else DefaultCheckpointInterval; < 0 writes none.
	// The checkpoint is best effort: the commit stands without it (the
	// table reads the same from its JSON commits).
	CheckpointInterval int
}

// CommitOptions tune Commit.Write.
type CommitOptions struct {
	// Store holds the object store options of a table whose root is a URL.
	Store map[string]string
	// MaxAttempts is how many versions a commit tries before it gives up
	// (DefaultMaxAttempts when 0).
	MaxAttempts int
}

// DefaultMaxAttempts is how many versions a commit tries by default.
const DefaultMaxAttempts = 1000

// ErrConflict marks a commit refused because a concurrent commit changed
// what it depends on (the table's protocol or metadata, or the files it
// read); ErrTableExists one that would create a table that exists.
var (
	ErrConflict    = errors.New("delta: concurrent modification")
	ErrTableExists = errors.New("delta: the table already exists")
)

// Write commits c to the table at root and returns the version it got.
func (c *Commit) Write(root string, opts CommitOptions) (int64, error) {
	st := storage{opts.Store}
	attempts := opts.MaxAttempts
	if attempts <= 0 {
		attempts = DefaultMaxAttempts
	}
	v := c.ReadVersion + 1
	if c.ReadVersion >= 0 {
		// Commits since the read: checked before the first attempt.
		var err error
		if v, err = c.checkSince(st, root, v); err != nil {
			return -1, err
		}
	}
	for try := 1; ; try++ {
		body, err := c.encode(v)
		if err != nil {
			return -1, fmt.Errorf("delta: %s: version %d: %w", root, v, err)
		}
		err = st.createExclusive(join(root, commitName(v)), body)
		if err == nil {
			c.checkpoint(root, v, opts)
			return v, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return -1, fmt.Errorf("delta: %s: writing version %d: %w", root, v, err)
		}
		if st.holds(join(root, commitName(v)), body) {
			// Our own commit: an upload whose answer was lost and whose
			// retry the store refused, the key being taken — by us.
			c.checkpoint(root, v, opts)
			return v, nil
		}
		if c.ReadVersion < 0 {
			return -1, fmt.Errorf("%w: %s (version 0 exists)", ErrTableExists, root)
		}
		if try >= attempts {
			return -1, fmt.Errorf("%w: %s: gave up after %d attempts (versions %d to %d were taken by other writers)",
				ErrConflict, root, attempts, v-int64(attempts)+1, v)
		}
		// Lost the race for v: read what won (and any later commits).
		if v, err = c.checkSince(st, root, v); err != nil {
			return -1, err
		}
	}
}

func commitName(v int64) string { return fmt.Sprintf("%s/%020d.json", LogDir, v) }

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// check decides whether the commit of version v by another writer
// conflicts with c.
func (c *Commit) check(root string, v int64, data []byte) error {
	return parseActions(fmt.Sprintf("%020d.json", v), data, func(a *action) error {
		switch {
		case a.Protocol != nil:
			return fmt.Errorf("%w: %s: version %d changed the protocol since version %d was read", ErrConflict, root, v, c.ReadVersion)
		case a.MetaData != nil:
			return fmt.Errorf("%w: %s: version %d changed the table's metadata since version %d was read", ErrConflict, root, v, c.ReadVersion)
		case a.Remove != nil && a.Remove.DataChange && !c.BlindAppend:
			return fmt.Errorf("%w: %s: version %d removed files (%s) since version %d was read", ErrConflict, root, v, a.Remove.Path, c.ReadVersion)
		case a.Remove != nil && c.removes(a.Remove.Path):
			// A rewrite (OPTIMIZE: dataChange false) took a file this
			// commit removes: its rows would be there twice.
			return fmt.Errorf("%w: %s: version %d rewrote %s (a file this commit removes) since version %d was read", ErrConflict, root, v, a.Remove.Path, c.ReadVersion)
		}
		return nil
	})
}

// removes reports whether the commit removes the data file at path (an
// action's path).
func (c *Commit) removes(path string) bool {
	for i := range c.Removes {
		if c.Removes[i].Path == path {
			return true
		}
	}
	return false
}

// The JSON forms of the actions a commit writes.
type (
	protocolJSON struct {
		MinReaderVersion int      `json:"minReaderVersion"`
		MinWriterVersion int      `json:"minWriterVersion"`
		ReaderFeatures   []string `json:"readerFeatures,omitempty"`
		WriterFeatures   []string `json:"writerFeatures,omitempty"`
	}
	metadataJSON struct {
		ID               string            `json:"id"`
		Name             string            `json:"name,omitempty"`
		Description      string            `json:"description,omitempty"`
		Format           formatJSON        `json:"format"`
		SchemaString     string            `json:"schemaString"`
		PartitionColumns []string          `json:"partitionColumns"`
		Configuration    map[string]string `json:"configuration"`
		CreatedTime      *int64            `json:"createdTime,omitempty"`
	}
	formatJSON struct {
		Provider string            `json:"provider"`
		Options  map[string]string `json:"options"`
	}
	commitInfoJSON struct {
		Timestamp           int64             `json:"timestamp"`
		Operation           string            `json:"operation"`
		OperationParameters map[string]string `json:"operationParameters"`
		ReadVersion         *int64            `json:"readVersion,omitempty"`
		IsolationLevel      string            `json:"isolationLevel"`
		IsBlindAppend       bool              `json:"isBlindAppend"`
		EngineInfo          string            `json:"engineInfo"`
	}
)

// encode writes the commit's actions, commitInfo first, one per line.
func (c *Commit) encode(v int64) ([]byte, error) {
	var buf bytes.Buffer
	put := func(key string, val any) error {
		b, err := json.Marshal(map[string]any{key: val})
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
		return nil
	}
	params := c.OperationParameters
	if params == nil {
		params = map[string]string{}
	}
	ci := commitInfoJSON{Timestamp: time.Now().UnixMilli(), Operation: c.Operation, OperationParameters: params,
		IsolationLevel: "Serializable", IsBlindAppend: c.BlindAppend, EngineInfo: "carquet"}
	if c.ReadVersion >= 0 {
		rv := c.ReadVersion
		ci.ReadVersion = &rv
	}
	if err := put("commitInfo", ci); err != nil {
		return nil, err
	}
	if p := c.Protocol; p != nil {
		if err := put("protocol", protocolJSON{p.MinReaderVersion, p.MinWriterVersion, p.ReaderFeatures, p.WriterFeatures}); err != nil {
			return nil, err
		}
	}
	if m := c.Metadata; m != nil {
		mj := metadataJSON{ID: m.ID, Name: m.Name, Description: m.Description, Format: formatJSON{Provider: "parquet", Options: map[string]string{}},
			SchemaString: m.SchemaString, PartitionColumns: m.PartitionColumns, Configuration: m.Configuration, CreatedTime: m.CreatedTime}
		if mj.PartitionColumns == nil {
			mj.PartitionColumns = []string{}
		}
		if mj.Configuration == nil {
			mj.Configuration = map[string]string{}
		}
		if err := put("metaData", mj); err != nil {
			return nil, err
		}
	}
	for i := range c.Removes {
		if err := put("remove", c.Removes[i]); err != nil {
			return nil, err
		}
	}
	for i := range c.Adds {
		a := c.Adds[i]
		if a.PartitionValues == nil {
			a.PartitionValues = map[string]*string{}
		}
		if err := put("add", a); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// checkSince checks the commits from version v on against c and returns
// the first version not yet written.
func (c *Commit) checkSince(st storage, root string, v int64) (int64, error) {
	for ; ; v++ {
		data, err := st.readFile(join(root, commitName(v)))
		if err != nil {
			if isNotExist(err) {
				return v, nil
			}
			return -1, fmt.Errorf("delta: %s: reading version %d: %w", root, v, err)
		}
		if err := c.check(root, v, data); err != nil {
			return -1, err
		}
	}
}

// holds reports whether the file at p has exactly the bytes data (a
// commit's body is unique to its writer: it carries the time and, for
// the files it adds, their random names).
func (s storage) holds(p string, data []byte) bool {
	got, err := s.readFile(p)
	return err == nil && bytes.Equal(got, data)
}

// createExclusive writes a whole file at p only if none is there: the
// error is fs.ErrExist otherwise.
func (s storage) createExclusive(p string, data []byte) error { return s.writeWhole(p, data, true) }

// writeWhole writes a whole file at p, so that readers see it whole or
// not at all: in a bucket by one upload (put if absent when exclusive),
// locally through a synced temporary file put in place by link(2), which
// fails when the name is taken (exclusive), or by rename, which replaces.
func (s storage) writeWhole(p string, data []byte, exclusive bool) error {
	if isURL(p) {
		up, err := objstore.CreateURL(context.Background(), p, s.store, exclusive)
		if err != nil {
			return err
		}
		if _, err := up.Write(data); err != nil {
			up.Abort()
			return err
		}
		return up.Commit()
	}
	dir := filepath.Dir(p)
	// The temporary name starts with a dot: no reader lists it.
	f, err := os.CreateTemp(dir, "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	put := os.Rename
	if exclusive {
		put = os.Link
	}
	if err := put(tmp, p); err != nil {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// NewTableID returns a random UUID (version 4) for a new table's
// metadata, or a data file's name.
func NewTableID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// CreateLog makes a local table's _delta_log folder (object stores need
// none).
func CreateLog(root string) error {
	if isURL(root) {
		return nil
	}
	return os.MkdirAll(filepath.Join(root, LogDir), 0o777)
}

// EncodePath is the path of an add action for a file name relative to
// the root (the protocol's paths are URIs).
func EncodePath(rel string) string {
	var b strings.Builder
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if b.Len() > 0 {
			b.WriteByte('/')
		}
		b.WriteString(pathEscape(seg))
	}
	return b.String()
}

func pathEscape(s string) string {
	return percentEscape(s, func(c byte) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.~=", c) >= 0)
	})
}

// percentEscape writes the bytes of s for which escape holds as %XX.
func percentEscape(s string, escape func(c byte) bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escape(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// checkpoint writes the checkpoint of version v when v is due one.
func (c *Commit) checkpoint(root string, v int64, opts CommitOptions) {
	n := c.CheckpointInterval
	if n == 0 {
		n = DefaultCheckpointInterval
		if c.Metadata != nil {
			n = CheckpointInterval(c.Metadata.Configuration)
		}
	}
	if n > 0 && v > 0 && v%int64(n) == 0 {
		WriteCheckpoint(root, v, opts.Store) // best effort: see CheckpointInterval
	}
}
