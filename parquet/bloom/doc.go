// Package bloom implements the split-block Bloom filter (SBBF) of the
// Parquet format (BloomFilter.md): the bitset, its insert and check
// operations, sizing for a target false-positive rate, and the xxHash64
// (seed 0) hashing of each physical type's PLAIN encoding.
//
// It sits under both sides of the flow: the column writer hashes every
// distinct value of a column chunk and inserts it, then stores Bytes()
// after a BloomFilterHeader; the scan planner reads the bitset back with
// FromBytes and drops row groups whose filter says "definitely not" for an
// `=` or `IN` predicate. The Thrift BloomFilterHeader itself is encoded and
// decoded in parquet/format; this package handles only the bitset. It is a
// leaf: it imports only the standard library and cespare/xxhash.
package bloom
