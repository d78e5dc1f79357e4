// Package schema turns the flat, depth-first SchemaElement list of a
// Parquet footer into a tree, and derives what readers and writers need from
// it: leaf column paths, maximum definition and repetition levels, the
// logical type of each node (with the backward-compatibility rules of
// LogicalTypes.md for converted types, legacy lists and maps), and a
// printable `message schema { ... }` text.
//
// It sits above parquet/format and below everything that handles columns.
package schema
