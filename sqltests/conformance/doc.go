// Package conformance reads every file of parquet-testing (data/,
// data/geospatial/ and shredded_variant/) with carquet and with the peers
// (DuckDB through `SELECT * FROM read_parquet(?)`, arrow-go through
// pqarrow.ReadTable) and compares the values cell by cell after the
// normalisation of package canon (timestamps as UTC nanoseconds, exact
// decimals, floats by bits with NaN as NaN, nested values in a canonical
// text form, maps ordered by key).
//
// It is the independent check of carquet's read path: the library's own
// tests can only check that files decode, not that the values are the
// ones other engines see. Files a reader rejects, and columns read
// differently for a documented reason, are listed in expectations.go with
// the reason; every other difference fails the test.
package conformance
