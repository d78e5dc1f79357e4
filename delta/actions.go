package delta

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/carquet-go/carquet/delta/dv"
)

// action is one line of a commit file or one row of a checkpoint: exactly
// one of its fields is set (others are ignored: commitInfo, txn, cdc,
// domainMetadata, rowIdHighWaterMark...).
type action struct {
	Add                *fileAction         `json:"add"`
	Remove             *fileAction         `json:"remove"`
	MetaData           *Metadata           `json:"metaData"`
	Protocol           *Protocol           `json:"protocol"`
	Sidecar            *sidecar            `json:"sidecar"`
	CheckpointMetadata *checkpointMetadata `json:"checkpointMetadata"`
}

// fileAction is an add or a remove.
type fileAction struct {
	Path             string             `json:"path"`
	PartitionValues  map[string]*string `json:"partitionValues"`
	Size             int64              `json:"size"`
	ModificationTime int64              `json:"modificationTime"`
	// DeletionTimestamp is a remove's.
	DeletionTimestamp *int64         `json:"deletionTimestamp"`
	DataChange        bool           `json:"dataChange"`
	Stats             *string        `json:"stats"`
	DeletionVector    *dv.Descriptor `json:"deletionVector"`
}

// Metadata is the table's metaData action.
type Metadata struct {
	ID               string                    `json:"id"`
	Name             string                    `json:"name"`
	Description      string                    `json:"description"`
	Format           struct{ Provider string } `json:"format"`
	SchemaString     string                    `json:"schemaString"`
	PartitionColumns []string                  `json:"partitionColumns"`
	Configuration    map[string]string         `json:"configuration"`
	CreatedTime      *int64                    `json:"createdTime"`
}

// Protocol is the table's protocol action.
type Protocol struct {
	MinReaderVersion int      `json:"minReaderVersion"`
	MinWriterVersion int      `json:"minWriterVersion"`
	ReaderFeatures   []string `json:"readerFeatures"`
	WriterFeatures   []string `json:"writerFeatures"`
}

type sidecar struct {
	Path        string `json:"path"`
	SizeInBytes int64  `json:"sizeInBytes"`
}

type checkpointMetadata struct {
	Version int64 `json:"version"`
}

// parseActions decodes a newline-delimited JSON commit file.
func parseActions(name string, data []byte, fn func(*action) error) error {
	return forEachLine(data, func(line int, l []byte) error {
		var a action
		if err := json.Unmarshal(l, &a); err != nil {
			return fmt.Errorf("delta: %s line %d: %w", name, line, err)
		}
		if err := fn(&a); err != nil {
			return fmt.Errorf("delta: %s line %d: %w", name, line, err)
		}
		return nil
	})
}

// forEachLine calls fn with each non-blank line of a newline-delimited
// JSON file (trimmed) and its number, from 1.
func forEachLine(data []byte, fn func(line int, l []byte) error) error {
	line := 0
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		line++
		if l = bytes.TrimSpace(l); len(l) > 0 {
			if err := fn(line, l); err != nil {
				return err
			}
		}
	}
	return nil
}

// supportedReaderFeatures are the reader table features this reader
// implements (or, for vacuumProtocolCheck, needs nothing for).
var supportedReaderFeatures = map[string]bool{
	"columnMapping":       true,
	"deletionVectors":     true,
	"timestampNtz":        true,
	"v2Checkpoint":        true,
	"vacuumProtocolCheck": true,
}

// check refuses a protocol this reader cannot honour, naming what is
// missing.
func (p *Protocol) check() error {
	switch {
	case p.MinReaderVersion <= 2:
		return nil
	case p.MinReaderVersion == 3:
		for _, f := range p.ReaderFeatures {
			if !supportedReaderFeatures[f] {
				return fmt.Errorf("delta: the table needs the reader feature %q, which is not supported", f)
			}
		}
		return nil
	}
	return fmt.Errorf("delta: the table needs reader version %d; versions up to 3 are supported", p.MinReaderVersion)
}

// HasFeature reports whether the protocol names a reader feature.
func (p *Protocol) HasFeature(name string) bool {
	for _, f := range p.ReaderFeatures {
		if f == name {
			return true
		}
	}
	return false
}
