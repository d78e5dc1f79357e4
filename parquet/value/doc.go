// Package value turns the slots of columnar vectors into Go values by
// their logical type: timestamps and dates become time.Time, decimals
// exact Decimal values, UUIDs strings, FLOAT16 float32, INT96 timestamps
// time.Time, structs map[string]any, lists []any and maps Go maps.
//
// It is the row view of a batch, used by programs that want rows and by
// the SQL driver. It sits beside parquet/file, above parquet/vector and
// parquet/schema.
package value
