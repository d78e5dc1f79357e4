package interop

import "strings"

// known is what is recorded about one reader and one cell: an error the
// reader gives (err, a substring) or columns it reads differently (cols),
// each with the reason.
type known struct {
	err    string
	reason string
	cols   map[string]string
	// exclude names columns the peer cannot decode in this cell; the
	// rest of the file is read and compared.
	exclude map[string]string
	// micros names timestamp columns the peer holds at microseconds: the
	// written nanoseconds are truncated (toward zero, as a C++ integer
	// division does) before the comparison.
	micros map[string]string
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// knownRead returns what is recorded for a peer reading a carquet file.
func knownRead(peer, table, codec, enc string, pageVersion int) known {
	k := known{}
	if codec == "lz4" {
		k.reason = "the peer does not read the deprecated LZ4 (Hadoop framing) codec"
		switch peer {
		case "duckdb":
			k.err = `Unsupported compression codec "LZ4"`
		case "arrow-go":
			k.err = "compression for LZ4 unimplemented"
		case "parquet-go":
			k.err = "unsupported compression codec: LZ4"
		}
		return k
	}
	switch peer {
	case "duckdb":
		if enc == "bss_other" && table != "empty" {
			return known{err: "BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE",
				reason: "DuckDB 1.5 reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE (the spec allows INT32, INT64 and FIXED_LEN_BYTE_ARRAY since 2.11)"}
		}
		if table == "primitives" {
			k.micros = map[string]string{"v_ts_ns": "DuckDB reads TIMESTAMP(NANOS, UTC) as TIMESTAMPTZ, which holds microseconds"}
			if enc == "delta" {
				k.exclude = map[string]string{"z_decba": "DuckDB 1.5 reads DELTA_LENGTH_BYTE_ARRAY only for STRING/BLOB, not for a BYTE_ARRAY DECIMAL"}
			}
		}
	case "arrow-go":
		if enc == "delta_byte_array_flba" && table == "primitives" {
			return known{err: "unimplemented encoding type",
				reason: "arrow-go 18.9 does not decode DELTA_BYTE_ARRAY on FIXED_LEN_BYTE_ARRAY columns"}
		}
	case "parquet-go":
		if table == "primitives" {
			k.cols = map[string]string{"zd_float16": "parquet-go 0.32 drops the FLOAT16 annotation (its schema shows FIXED_LEN_BYTE_ARRAY(2)) and returns the two raw bytes"}
		}
		if table == "nested" {
			k.cols = map[string]string{"h_map_int_list": "parquet-go's Reconstruct into map[string]any gives INT64 map keys as byte strings (a limitation of this harness's generic read path, not of the file)"}
		}
	}
	return k
}
