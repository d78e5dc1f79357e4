// Package thrift is a hand-written implementation of the Thrift compact
// protocol, the serialisation Parquet uses for all of its metadata.
//
// It has no reflection and no generated-code runtime: the structs of
// parquet/format call Reader and Writer directly. The Reader works over a
// byte slice that is already in memory (a footer, a page header), returns
// binary values as sub-slices of it without copying, and bounds everything
// an untrusted input controls: nesting depth, and collection sizes (which
// can never exceed the bytes left, since every element takes at least one).
package thrift
