package sqlplan

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// The rows of the introspection functions (pqmeta.go). Each xColumns adds
// the function's columns to c, in DuckDB's order with DuckDB's types, and
// returns the function that adds one file's rows. A value the footer does
// not hold is NULL, as in DuckDB.

var (
	tBlob    = Type{Kind: KBytes}
	tUbigint = Type{Kind: KUint}
	tStrings = Type{Kind: KNested, Elem: &tString}
	tBlobMap = Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: tBlob}, {Name: "value", Type: tBlob}}}
	tGeoBBox = Type{Kind: KNested, Fields: []NamedType{
		{Name: "xmin", Type: tFloat}, {Name: "xmax", Type: tFloat}, {Name: "ymin", Type: tFloat}, {Name: "ymax", Type: tFloat},
		{Name: "zmin", Type: tFloat}, {Name: "zmax", Type: tFloat}, {Name: "mmin", Type: tFloat}, {Name: "mmax", Type: tFloat}}}
)

// optInt is an optional footer number as a value: nil when unset.
func optInt[T int32 | int64 | int16](o format.Opt[T]) any {
	if v, ok := o.Get(); ok {
		return int64(v)
	}
	return nil
}

// optBool is an optional footer flag as a value: nil when unset.
func optBool(o format.Opt[bool]) any {
	if v, ok := o.Get(); ok {
		return v
	}
	return nil
}

// chunkMetaColumns is parquet_metadata: a row per column chunk.
func chunkMetaColumns(c *catalogRows) func(m metaFile) error {
	name, rgID, rgRows, rgCols, rgBytes := c.col("file_name", tString), c.col("row_group_id", tBigint), c.col("row_group_num_rows", tBigint), c.col("row_group_num_columns", tBigint), c.col("row_group_bytes", tBigint)
	colID, offset, numValues, path, typ := c.col("column_id", tBigint), c.col("file_offset", tBigint), c.col("num_values", tBigint), c.col("path_in_schema", tString), c.col("type", tString)
	statsMin, statsMax, nulls, distinct := c.col("stats_min", tString), c.col("stats_max", tString), c.col("stats_null_count", tBigint), c.col("stats_distinct_count", tBigint)
	minValue, maxValue, codec, encodings := c.col("stats_min_value", tString), c.col("stats_max_value", tString), c.col("compression", tString), c.col("encodings", tString)
	indexPage, dictPage, dataPage := c.col("index_page_offset", tBigint), c.col("dictionary_page_offset", tBigint), c.col("data_page_offset", tBigint)
	compressed, uncompressed, kv := c.col("total_compressed_size", tBigint), c.col("total_uncompressed_size", tBigint), c.col("key_value_metadata", tBlobMap)
	bloomOff, bloomLen, minExact, maxExact := c.col("bloom_filter_offset", tBigint), c.col("bloom_filter_length", tBigint), c.col("min_is_exact", tBool), c.col("max_is_exact", tBool)
	rgCompressed, geoBBox, geoTypes := c.col("row_group_compressed_bytes", tBigint), c.col("geo_bbox", tGeoBBox), c.col("geo_types", tStrings)
	return func(m metaFile) error {
		leaves := m.f.Schema.Leaves
		for rg := range m.f.Meta.RowGroups {
			g := &m.f.Meta.RowGroups[rg]
			for col := range leaves {
				cc, err := m.f.ColumnChunk(rg, col)
				if err != nil {
					return errorf("%s: %v", m.name, err)
				}
				md := cc.MetaData
				if md == nil {
					return errorf("%s: row group %d, column %d has no metadata (an encrypted column?)", m.name, rg, col)
				}
				c.n++
				name.Add(m.name)
				rgID.Add(int64(rg))
				rgRows.Add(g.NumRows)
				rgCols.Add(int64(len(leaves)))
				rgBytes.Add(g.TotalByteSize)
				colID.Add(int64(col))
				if g.FileOffset.Set { // DuckDB's rule: the chunk's offset only where the row group has one
					offset.Add(cc.FileOffset)
				} else {
					offset.Add(nil)
				}
				numValues.Add(md.NumValues)
				path.Add(strings.Join(md.PathInSchema, ", "))
				typ.Add(md.Type.String())
				addStats(m, leaves[col], md.Statistics, statsMin, statsMax, nulls, distinct, minValue, maxValue, minExact, maxExact)
				codec.Add(md.Codec.String())
				encodings.Add(encodingsText(md.Encodings))
				indexPage.Add(optInt(md.IndexPageOffset))
				dictPage.Add(optInt(md.DictionaryPageOffset))
				dataPage.Add(md.DataPageOffset)
				compressed.Add(md.TotalCompressedSize)
				uncompressed.Add(md.TotalUncompressedSize)
				kv.Add(keyValueMap(md.KeyValueMetadata))
				bloomOff.Add(optInt(md.BloomFilterOffset))
				bloomLen.Add(optInt(md.BloomFilterLength))
				rgCompressed.Add(optInt(g.TotalCompressedSize))
				bbox, types := geoStats(md.GeospatialStatistics)
				geoBBox.Add(bbox)
				geoTypes.Add(types)
			}
		}
		return nil
	}
}

// addStats adds a chunk's statistics: the legacy min/max and the
// min_value/max_value as text of the column's type, the counts and the
// exactness flags.
func addStats(m metaFile, leaf *schema.Node, st *format.Statistics, statsMin, statsMax, nulls, distinct, minValue, maxValue, minExact, maxExact *colBuilder) {
	if st == nil {
		st = &format.Statistics{}
	}
	statsMin.Add(statText(leaf, st.Min))
	statsMax.Add(statText(leaf, st.Max))
	nulls.Add(optInt(st.NullCount))
	distinct.Add(optInt(st.DistinctCount))
	minValue.Add(statText(leaf, st.MinValue))
	maxValue.Add(statText(leaf, st.MaxValue))
	minExact.Add(optBool(st.IsMinValueExact))
	maxExact.Add(optBool(st.IsMaxValueExact))
}

// encodingsText lists encodings as DuckDB does: "PLAIN, RLE".
func encodingsText(encs []format.Encoding) string {
	parts := make([]string, len(encs))
	for i, e := range encs {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// keyValueMap is key/value metadata as a MAP(BLOB, BLOB) value; a key
// without a value maps to the empty blob, as in DuckDB.
func keyValueMap(kvs []format.KeyValue) map[any]any {
	m := make(map[any]any, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.Value
	}
	return m
}

// geoStats is a chunk's geospatial statistics as geo_bbox and geo_types
// (nil without them). The types are the WKB codes' names (1000 adds Z,
// 2000 M, 3000 ZM).
func geoStats(g *format.GeospatialStatistics) (bbox, types any) {
	if g == nil {
		return nil, nil
	}
	if b := g.BBox; b != nil {
		opt := func(o format.Opt[float64]) any {
			if v, ok := o.Get(); ok {
				return v
			}
			return nil
		}
		bbox = map[string]any{"xmin": b.Xmin, "xmax": b.Xmax, "ymin": b.Ymin, "ymax": b.Ymax,
			"zmin": opt(b.Zmin), "zmax": opt(b.Zmax), "mmin": opt(b.Mmin), "mmax": opt(b.Mmax)}
	}
	if g.GeospatialTypes != nil {
		names := []string{"geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection"}
		list := make([]any, len(g.GeospatialTypes))
		for i, code := range g.GeospatialTypes {
			s := strconv.Itoa(int(code))
			if base := int(code % 1000); code >= 0 && base < len(names) {
				s = names[base] + [...]string{"", "_z", "_m", "_zm"}[min(int(code/1000), 3)]
			}
			list[i] = s
		}
		types = list
	}
	return bbox, types
}

// schemaMetaColumns is parquet_schema: a row per schema element, in the
// footer's (depth-first) order.
func schemaMetaColumns(c *catalogRows) func(m metaFile) error {
	name, elemName, typ, typeLen, rep := c.col("file_name", tString), c.col("name", tString), c.col("type", tString), c.col("type_length", tString), c.col("repetition_type", tString)
	children, converted, scale, prec, fieldID := c.col("num_children", tBigint), c.col("converted_type", tString), c.col("scale", tBigint), c.col("precision", tBigint), c.col("field_id", tBigint)
	logical, duckType, colID := c.col("logical_type", tString), c.col("duckdb_type", tString), c.col("column_id", tBigint)
	return func(m metaFile) error {
		nodes := schemaNodes(m.f.Schema.Root, nil)
		for i := range m.f.Meta.Schema {
			e := &m.f.Meta.Schema[i]
			c.n++
			name.Add(m.name)
			elemName.Add(e.Name)
			typ.Add(optString(e.Type))
			if l, ok := e.TypeLength.Get(); ok {
				typeLen.Add(strconv.Itoa(int(l)))
			} else {
				typeLen.Add(nil)
			}
			if r, ok := e.RepetitionType.Get(); ok {
				rep.Add(strings.ToUpper(r.String()))
			} else {
				rep.Add(nil)
			}
			children.Add(optInt(e.NumChildren))
			converted.Add(optString(e.ConvertedType))
			scale.Add(optInt(e.Scale))
			prec.Add(optInt(e.Precision))
			fieldID.Add(optInt(e.FieldID))
			if e.LogicalType != nil {
				logical.Add(logicalTypeText(e.LogicalType))
			} else {
				logical.Add(nil)
			}
			duckType.Add(leafTypeName(nodes, i))
			colID.Add(int64(i))
		}
		return nil
	}
}

// optString is an optional footer enum's name: nil when unset.
func optString[T interface{ String() string }](o format.Opt[T]) any {
	if v, ok := o.Get(); ok {
		return v.String()
	}
	return nil
}

// schemaNodes lists the schema tree depth-first: the order of the
// footer's elements.
func schemaNodes(n *schema.Node, dst []*schema.Node) []*schema.Node {
	dst = append(dst, n)
	for _, ch := range n.Children {
		dst = schemaNodes(ch, dst)
	}
	return dst
}

// leafTypeName is the SQL type DuckDB reads a leaf element as (nil for
// groups).
func leafTypeName(nodes []*schema.Node, i int) any {
	if i >= len(nodes) || !nodes[i].IsLeaf() || nodes[i].Parent == nil {
		return nil
	}
	n := nodes[i]
	t, ok := metaType(n)
	switch {
	case !ok:
		return nil
	case n.SchemaElement != nil && n.SchemaElement.LogicalType != nil && n.SchemaElement.LogicalType.Unknown != nil:
		return `"NULL"`
	case t.Kind == KTimestamp && t.TZ:
		return "TIMESTAMP WITH TIME ZONE"
	}
	return t.SQLName()
}

// metaType is the SQL type of a leaf's values as DuckDB reads them:
// carquet's, but for a footer without logical types, whose legacy
// TIMESTAMP_* and TIME_* DuckDB takes as local (carquet as UTC, as
// LogicalTypes.md says). ok is false for a leaf of no primitive type.
func metaType(n *schema.Node) (Type, bool) {
	f, err := leafField(n)
	if err != nil || f.Kind != schema.Primitive {
		return Type{}, false
	}
	t := typeOfField(f)
	if e := n.SchemaElement; e == nil || e.LogicalType == nil {
		t.TZ = false
		if t.Kind == KTimeTZ {
			t.Kind = KTime
		}
	}
	return t, true
}

// fileMetaColumns is parquet_file_metadata: a row per file.
func fileMetaColumns(c *catalogRows) func(m metaFile) error {
	name, createdBy, numRows, numRGs, version := c.col("file_name", tString), c.col("created_by", tString), c.col("num_rows", tBigint), c.col("num_row_groups", tBigint), c.col("format_version", tBigint)
	algo, signing, size, footer, orders := c.col("encryption_algorithm", tString), c.col("footer_signing_key_metadata", tString), c.col("file_size_bytes", tUbigint), c.col("footer_size", tUbigint), c.col("column_orders", tStrings)
	return func(m metaFile) error {
		md := m.f.Meta
		c.n++
		name.Add(m.name)
		if s, ok := md.CreatedBy.Get(); ok {
			createdBy.Add(s)
		} else {
			createdBy.Add(nil)
		}
		numRows.Add(md.NumRows)
		numRGs.Add(int64(len(md.RowGroups)))
		version.Add(int64(md.Version))
		algo.Add(encryptionText(md.EncryptionAlgorithm))
		if md.FooterSigningKeyMetadata != nil {
			signing.Add(string(md.FooterSigningKeyMetadata))
		} else {
			signing.Add(nil)
		}
		size.Add(uint64(m.f.Size()))
		n, err := footerSize(m)
		if err != nil {
			return err
		}
		footer.Add(n)
		orders.Add(columnOrdersText(md.ColumnOrders))
		return nil
	}
}

// footerSize reads the footer's length from the file's last 8 bytes.
func footerSize(m metaFile) (uint64, error) {
	if m.f.Size() < 8 {
		return 0, errorf("%s: too short for a Parquet file", m.name)
	}
	b, err := m.f.ReadRange(m.f.Size()-8, 4)
	if err != nil {
		return 0, errorf("%s: %v", m.name, err)
	}
	return uint64(binary.LittleEndian.Uint32(b)), nil
}

// encryptionText names a file's encryption algorithm (nil for none).
func encryptionText(a *format.EncryptionAlgorithm) any {
	switch {
	case a == nil:
		return nil
	case a.AesGcmV1 != nil:
		return "AES_GCM_V1"
	case a.AesGcmCtrV1 != nil:
		return "AES_GCM_CTR_V1"
	}
	return "UNKNOWN"
}

// columnOrdersText renders the column orders as Thrift prints them, as
// DuckDB shows them (nil when the footer has none).
func columnOrdersText(orders []format.ColumnOrder) any {
	if orders == nil {
		return nil
	}
	out := make([]any, len(orders))
	for i, o := range orders {
		switch {
		case o.TypeOrder != nil:
			out[i] = "ColumnOrder(TYPE_ORDER=TypeDefinedOrder())"
		case o.IEEE754TotalOrder != nil:
			out[i] = "ColumnOrder(IEEE_754_TOTAL_ORDER=IEEE754TotalOrder())"
		default:
			out[i] = "ColumnOrder()"
		}
	}
	return out
}

// kvMetaColumns is parquet_kv_metadata: a row per footer key/value pair.
func kvMetaColumns(c *catalogRows) func(m metaFile) error {
	name, key, val := c.col("file_name", tString), c.col("key", tBlob), c.col("value", tBlob)
	return func(m metaFile) error {
		for _, kv := range m.f.Meta.KeyValueMetadata {
			c.n++
			name.Add(m.name)
			key.Add(kv.Key)
			val.Add(kv.Value.Value) // a key without a value: the empty blob, as in DuckDB
		}
		return nil
	}
}
