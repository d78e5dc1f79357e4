package delta

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/delta/dv"
)

// Deleting rows: a DELETE or UPDATE marks the rows it takes out of a data
// file in the file's deletion vector (merged with the one it had) and
// commits a remove of the file with its old vector and an add of the same
// file with the new one. The data file itself is not written again.

// InlineDVMaxBytes is the largest serialized deletion vector kept inline
// in the add action (storage type "i"); larger ones go to a
// deletion_vector_<uuid>.bin file beside the data.
const InlineDVMaxBytes = 128

// FeatureDeletionVectors is the table feature deletion vectors need.
const FeatureDeletionVectors = "deletionVectors"

// legacyWriterFeatures are the writer features a legacy writer version
// implies, and legacyReaderFeatures the reader ones (protocol "Table
// Features": an upgrade to version 7 (3) lists them).
var legacyWriterFeatures = [...][]string{
	2: {"appendOnly", "invariants"},
	3: {"appendOnly", "invariants", "checkConstraints"},
	4: {"appendOnly", "invariants", "checkConstraints", "changeDataFeed", "generatedColumns"},
	5: {"appendOnly", "invariants", "checkConstraints", "changeDataFeed", "generatedColumns", "columnMapping"},
	6: {"appendOnly", "invariants", "checkConstraints", "changeDataFeed", "generatedColumns", "columnMapping", "identityColumns"},
}

// WithDeletionVectors returns p upgraded to declare the deletionVectors
// reader and writer feature (reader version 3, writer version 7, with the
// features p's legacy versions implied listed), or nil when p declares it.
func WithDeletionVectors(p Protocol) *Protocol {
	hasW := slices.Contains(p.WriterFeatures, FeatureDeletionVectors)
	if p.MinReaderVersion == 3 && p.MinWriterVersion == 7 && p.HasFeature(FeatureDeletionVectors) && hasW {
		return nil
	}
	q := &Protocol{MinReaderVersion: 3, MinWriterVersion: 7}
	switch {
	case p.MinReaderVersion == 3:
		q.ReaderFeatures = slices.Clone(p.ReaderFeatures)
	case p.MinReaderVersion == 2:
		q.ReaderFeatures = []string{"columnMapping"}
	}
	switch {
	case p.MinWriterVersion == 7:
		q.WriterFeatures = slices.Clone(p.WriterFeatures)
	case p.MinWriterVersion >= 2 && p.MinWriterVersion < len(legacyWriterFeatures):
		q.WriterFeatures = slices.Clone(legacyWriterFeatures[p.MinWriterVersion])
	}
	if !slices.Contains(q.ReaderFeatures, FeatureDeletionVectors) {
		q.ReaderFeatures = append(q.ReaderFeatures, FeatureDeletionVectors)
	}
	if !slices.Contains(q.WriterFeatures, FeatureDeletionVectors) {
		q.WriterFeatures = append(q.WriterFeatures, FeatureDeletionVectors)
	}
	if q.ReaderFeatures == nil {
		q.ReaderFeatures = []string{}
	}
	return q
}

// CheckDeletable refuses to delete rows from a table whose protocol or
// metadata asks more of a writer than CheckAppendable checks, or forbids
// deletes: an append-only table, or one that records a change data feed
// (which a delete would have to write).
func (s *Snapshot) CheckDeletable() error {
	if err := s.CheckAppendable(); err != nil {
		return err
	}
	conf := s.Metadata.Configuration
	switch {
	case strings.EqualFold(conf["delta.appendOnly"], "true"):
		return fmt.Errorf("delta: %s (version %d): the table is append-only (delta.appendOnly)", s.Root, s.Version)
	case strings.EqualFold(conf["delta.enableChangeDataFeed"], "true"):
		return fmt.Errorf("delta: %s (version %d): the table records a change data feed (delta.enableChangeDataFeed), which this writer does not write", s.Root, s.Version)
	case strings.EqualFold(conf["delta.enableRowTracking"], "true"):
		return fmt.Errorf("delta: %s (version %d): the table tracks row ids (delta.enableRowTracking), which this writer does not maintain", s.Root, s.Version)
	}
	return nil
}

// Deletions returns the rows file a's deletion vector deletes (an empty
// bitmap when it has none).
func (s *Snapshot) Deletions(a *AddFile) (*dv.Bitmap, error) {
	if a.DeletionVector == nil {
		return dv.New(), nil
	}
	bm, err := dv.LoadWith(s.Root, *a.DeletionVector, s.Store)
	if err != nil {
		return nil, fmt.Errorf("delta: %s (version %d): deletion vector of %s: %w", s.Root, s.Version, a.URI, err)
	}
	return bm, nil
}

// WriteDeletionVectors stores the bitmaps for the table at root: inline
// when small (or when the table is in an object store), else together in
// one new deletion_vector_<uuid>.bin at the root. It returns a descriptor
// per bitmap and undo, which removes the file written.
func WriteDeletionVectors(root string, bitmaps []*dv.Bitmap) ([]dv.Descriptor, func(), error) {
	descs := make([]dv.Descriptor, len(bitmaps))
	var big []*dv.Bitmap
	var at []int
	for i, b := range bitmaps {
		data, err := b.MarshalBinary()
		if err != nil {
			return nil, nil, err
		}
		if len(data) <= InlineDVMaxBytes || isURL(root) {
			if descs[i], err = dv.Inline(b); err != nil {
				return nil, nil, err
			}
			continue
		}
		big, at = append(big, b), append(at, i)
	}
	undo := func() {}
	if len(big) > 0 {
		fd, err := dv.WriteFile(root, "", big)
		if err != nil {
			return nil, nil, err
		}
		for k, i := range at {
			descs[i] = fd[k]
		}
		if p, err := fd[0].AbsolutePath(root); err == nil {
			undo = func() { os.Remove(p) }
		}
	}
	return descs, undo, nil
}

// WideStats is a stats string for a file whose rows a deletion vector
// now hides: the same statistics (still bounds of the rows left), marked
// tightBounds false, with numRecords (the file's physical row count) set.
func WideStats(stats string, numRecords int64) (string, error) {
	m := map[string]json.RawMessage{}
	if stats != "" {
		if err := json.Unmarshal([]byte(stats), &m); err != nil {
			return "", fmt.Errorf("stats %q: %w", stats, err)
		}
	}
	if _, ok := m["numRecords"]; !ok {
		m["numRecords"] = json.RawMessage(fmt.Sprint(numRecords))
	}
	m["tightBounds"] = json.RawMessage("false")
	b, err := json.Marshal(m)
	return string(b), err
}
