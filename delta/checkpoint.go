package delta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/writer"
)

// Checkpoints: every delta.checkpointInterval commits (10 by default) a
// writer writes the table's state at that version as a classic Parquet
// checkpoint, _delta_log/<version>.checkpoint.parquet (protocol,
// metaData, the live files' add actions with their deletion vectors and
// stats, and the remove tombstones still within
// delta.deletedFileRetentionDuration), then _delta_log/_last_checkpoint.
// Readers start from the newest checkpoint and replay the commits after it.

// DefaultCheckpointInterval is the checkpoint interval of a table that
// sets no delta.checkpointInterval.
const DefaultCheckpointInterval = 10

// CheckpointInterval is the checkpoint interval a table's configuration
// asks for (DefaultCheckpointInterval when it sets none or a bad one).
func CheckpointInterval(conf map[string]string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(conf["delta.checkpointInterval"])); err == nil && n > 0 {
		return n
	}
	return DefaultCheckpointInterval
}

// defaultTombstoneRetention is delta.deletedFileRetentionDuration's
// default: a week.
const defaultTombstoneRetention = 7 * 24 * time.Hour

// tombstoneRetention parses delta.deletedFileRetentionDuration ("interval
// 1 week", "interval 36 hours", ...).
func tombstoneRetention(conf map[string]string) time.Duration {
	f := strings.Fields(strings.ToLower(conf["delta.deletedFileRetentionDuration"]))
	if len(f) == 3 && f[0] == "interval" {
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err == nil && n >= 0 {
			unit := map[string]time.Duration{"week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
				"hour": time.Hour, "hours": time.Hour, "minute": time.Minute, "minutes": time.Minute, "second": time.Second, "seconds": time.Second}[f[2]]
			if unit > 0 {
				return time.Duration(n) * unit
			}
		}
	}
	return defaultTombstoneRetention
}

// checkpointSchema is the Parquet schema of the checkpoints written.
func checkpointSchema() []writer.Field {
	strMap := func(name string) writer.Field {
		return writer.Map(name, writer.String("key").Required(), writer.String("value"))
	}
	strList := func(name string) writer.Field { return writer.List(name, writer.String("element")) }
	dvField := writer.Group("deletionVector",
		writer.String("storageType").Required(), writer.String("pathOrInlineDv").Required(), writer.Int32("offset"),
		writer.Int32("sizeInBytes").Required(), writer.Int64("cardinality").Required())
	return []writer.Field{
		writer.Group("protocol", writer.Int32("minReaderVersion").Required(), writer.Int32("minWriterVersion").Required(),
			strList("readerFeatures"), strList("writerFeatures")),
		writer.Group("metaData", writer.String("id").Required(), writer.String("name"), writer.String("description"),
			writer.Group("format", writer.String("provider").Required(), strMap("options")),
			writer.String("schemaString").Required(), strList("partitionColumns"), strMap("configuration"), writer.Int64("createdTime")),
		writer.Group("add", writer.String("path").Required(), strMap("partitionValues"), writer.Int64("size").Required(),
			writer.Int64("modificationTime").Required(), writer.Bool("dataChange").Required(), writer.String("stats"), dvField),
		writer.Group("remove", writer.String("path").Required(), writer.Int64("deletionTimestamp"), writer.Bool("dataChange").Required(),
			writer.Bool("extendedFileMetadata"), strMap("partitionValues"), writer.Int64("size"), dvField),
	}
}

func dvValue(d *dv.Descriptor) any {
	if d == nil {
		return nil
	}
	m := map[string]any{"storageType": d.StorageType, "pathOrInlineDv": d.PathOrInlineDv, "sizeInBytes": d.SizeInBytes, "cardinality": d.Cardinality}
	if d.Offset != nil {
		m["offset"] = *d.Offset
	}
	return m
}

func partitionValues(pv map[string]*string) map[string]any {
	out := make(map[string]any, len(pv))
	for k, v := range pv {
		if v == nil {
			out[k] = nil
		} else {
			out[k] = *v
		}
	}
	return out
}

func strsOrNil(l []string) any {
	if l == nil {
		return nil
	}
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// WriteCheckpoint writes the classic checkpoint of the table at root at
// version, and _last_checkpoint (when no newer checkpoint is recorded).
// Tables that use V2 checkpoints (the v2Checkpoint feature) are refused.
func WriteCheckpoint(root string, version int64, store map[string]string) error {
	s, err := OpenWith(root, version, store)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		return fmt.Errorf("delta: %s: checkpoint of version %d: %w", root, version, err)
	}
	if slices.Contains(s.Protocol.WriterFeatures, "v2Checkpoint") {
		return fail(fmt.Errorf("the table uses V2 checkpoints, which this writer does not write"))
	}
	sch, err := writer.NewSchema(checkpointSchema()...)
	if err != nil {
		return fail(err)
	}
	var buf bytes.Buffer
	w, err := writer.New(&buf, sch)
	if err != nil {
		return fail(err)
	}
	row := func(col int, v any) []any {
		r := make([]any, 4)
		r[col] = v
		return r
	}
	p, m := s.Protocol, s.Metadata
	proto := map[string]any{"minReaderVersion": int32(p.MinReaderVersion), "minWriterVersion": int32(p.MinWriterVersion)}
	if p.MinReaderVersion >= 3 {
		proto["readerFeatures"] = strsOrNil(append([]string{}, p.ReaderFeatures...))
	}
	if p.MinWriterVersion >= 7 {
		proto["writerFeatures"] = strsOrNil(append([]string{}, p.WriterFeatures...))
	}
	conf := map[string]any{}
	for k, v := range m.Configuration {
		conf[k] = v
	}
	meta := map[string]any{"id": m.ID, "schemaString": m.SchemaString, "partitionColumns": strsOrNil(append([]string{}, m.PartitionColumns...)),
		"configuration": conf, "format": map[string]any{"provider": "parquet", "options": map[string]any{}}}
	if m.Name != "" {
		meta["name"] = m.Name
	}
	if m.Description != "" {
		meta["description"] = m.Description
	}
	if m.CreatedTime != nil {
		meta["createdTime"] = *m.CreatedTime
	}
	rows := [][]any{row(0, proto), row(1, meta)}
	for _, a := range s.Files {
		add := map[string]any{"path": a.URI, "partitionValues": partitionValues(a.PartitionValues), "size": a.Size,
			"modificationTime": a.ModificationTime, "dataChange": false, "deletionVector": dvValue(a.DeletionVector)}
		if a.StatsJSON != "" {
			add["stats"] = a.StatsJSON
		}
		rows = append(rows, row(2, add))
	}
	horizon := time.Now().Add(-tombstoneRetention(m.Configuration)).UnixMilli()
	for _, t := range s.tombstones {
		if t.DeletionTimestamp != nil && *t.DeletionTimestamp < horizon {
			continue // expired: VACUUM may have deleted the file
		}
		rm := map[string]any{"path": t.Path, "dataChange": false, "extendedFileMetadata": false, "deletionVector": dvValue(t.DeletionVector)}
		if t.DeletionTimestamp != nil {
			rm["deletionTimestamp"] = *t.DeletionTimestamp
		}
		if t.PartitionValues != nil {
			rm["partitionValues"], rm["extendedFileMetadata"], rm["size"] = partitionValues(t.PartitionValues), true, t.Size
		}
		rows = append(rows, row(3, rm))
	}
	if err := w.WriteRows(rows); err != nil {
		return fail(err)
	}
	if err := w.Close(); err != nil {
		return fail(err)
	}
	st := storage{store}
	dir := join(root, LogDir)
	if err := st.putFile(join(dir, fmt.Sprintf("%020d.checkpoint.parquet", version)), buf.Bytes()); err != nil {
		return fail(err)
	}
	// _last_checkpoint only moves forward.
	if data, err := st.readFile(join(dir, "_last_checkpoint")); err == nil {
		var last struct {
			Version int64 `json:"version"`
		}
		if json.Unmarshal(data, &last) == nil && last.Version > version {
			return nil
		}
	}
	last, err := json.Marshal(map[string]any{"version": version, "size": len(rows), "sizeInBytes": buf.Len(), "numOfAddFiles": len(s.Files)})
	if err != nil {
		return fail(err)
	}
	if err := st.putFile(join(dir, "_last_checkpoint"), last); err != nil {
		return fail(err)
	}
	return nil
}

// putFile writes a whole file, replacing any: locally through a
// temporary file renamed into place, so that readers see it whole.
func (s storage) putFile(p string, data []byte) error { return s.writeWhole(p, data, false) }
