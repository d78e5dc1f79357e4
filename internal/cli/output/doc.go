// Package output renders result sets for pqsql: pretty tables (ASCII,
// box drawing, Markdown) fitted to a terminal width, the one-value-per-line
// form, and the machine formats CSV, TSV, JSON and JSON Lines.
//
// Rows arrive one at a time as Go values of the kinds database/sql and
// parquet/value hand out; the machine formats stream them, the tables
// buffer them to size their columns. Values are turned into text by
// Text, which every format shares, so that a CSV written by one command
// reads back the same way in another (pqsql import).
package output
