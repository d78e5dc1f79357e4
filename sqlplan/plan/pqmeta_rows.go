package plan

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
	tStrings = Type{Kind: KNested, Elem: &TString}
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
func chunkMetaColumns(c *CatalogRows) func(m metaFile) error {
	name, rgID, rgRows, rgCols, rgBytes := c.Col("file_name", TString), c.Col("row_group_id", TBigint), c.Col("row_group_num_rows", TBigint), c.Col("row_group_num_columns", TBigint), c.Col("row_group_bytes", TBigint)
	colID, offset, numValues, path, typ := c.Col("column_id", TBigint), c.Col("file_offset", TBigint), c.Col("num_values", TBigint), c.Col("path_in_schema", TString), c.Col("type", TString)
	statsMin, statsMax, nulls, distinct := c.Col("stats_min", TString), c.Col("stats_max", TString), c.Col("stats_null_count", TBigint), c.Col("stats_distinct_count", TBigint)
	minValue, maxValue, codec, encodings := c.Col("stats_min_value", TString), c.Col("stats_max_value", TString), c.Col("compression", TString), c.Col("encodings", TString)
	indexPage, dictPage, dataPage := c.Col("index_page_offset", TBigint), c.Col("dictionary_page_offset", TBigint), c.Col("data_page_offset", TBigint)
	compressed, uncompressed, kv := c.Col("total_compressed_size", TBigint), c.Col("total_uncompressed_size", TBigint), c.Col("key_value_metadata", tBlobMap)
	bloomOff, bloomLen, minExact, maxExact := c.Col("bloom_filter_offset", TBigint), c.Col("bloom_filter_length", TBigint), c.Col("min_is_exact", TBool), c.Col("max_is_exact", TBool)
	rgCompressed, geoBBox, geoTypes := c.Col("row_group_compressed_bytes", TBigint), c.Col("geo_bbox", tGeoBBox), c.Col("geo_types", tStrings)
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
				c.N++
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
func addStats(m metaFile, leaf *schema.Node, st *format.Statistics, statsMin, statsMax, nulls, distinct, minValue, maxValue, minExact, maxExact *ColBuilder) {
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
func schemaMetaColumns(c *CatalogRows) func(m metaFile) error {
	name, elemName, typ, typeLen, rep := c.Col("file_name", TString), c.Col("name", TString), c.Col("type", TString), c.Col("type_length", TString), c.Col("repetition_type", TString)
	children, converted, scale, prec, fieldID := c.Col("num_children", TBigint), c.Col("converted_type", TString), c.Col("scale", TBigint), c.Col("precision", TBigint), c.Col("field_id", TBigint)
	logical, duckType, colID := c.Col("logical_type", TString), c.Col("duckdb_type", TString), c.Col("column_id", TBigint)
	return func(m metaFile) error {
		nodes := schemaNodes(m.f.Schema.Root, nil)
		for i := range m.f.Meta.Schema {
			e := &m.f.Meta.Schema[i]
			c.N++
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
	t := TypeOfField(f)
	if e := n.SchemaElement; e == nil || e.LogicalType == nil {
		t.TZ = false
		if t.Kind == KTimeTZ {
			t.Kind = KTime
		}
	}
	return t, true
}

// fileMetaColumns is parquet_file_metadata: a row per file.
func fileMetaColumns(c *CatalogRows) func(m metaFile) error {
	name, createdBy, numRows, numRGs, version := c.Col("file_name", TString), c.Col("created_by", TString), c.Col("num_rows", TBigint), c.Col("num_row_groups", TBigint), c.Col("format_version", TBigint)
	algo, signing, size, footer, orders := c.Col("encryption_algorithm", TString), c.Col("footer_signing_key_metadata", TString), c.Col("file_size_bytes", tUbigint), c.Col("footer_size", tUbigint), c.Col("column_orders", tStrings)
	return func(m metaFile) error {
		md := m.f.Meta
		c.N++
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
func kvMetaColumns(c *CatalogRows) func(m metaFile) error {
	name, key, val := c.Col("file_name", TString), c.Col("key", tBlob), c.Col("value", tBlob)
	return func(m metaFile) error {
		for _, kv := range m.f.Meta.KeyValueMetadata {
			c.N++
			name.Add(m.name)
			key.Add(kv.Key)
			val.Add(kv.Value.Value) // a key without a value: the empty blob, as in DuckDB
		}
		return nil
	}
}
